// The requests behind the analyst views: only the API's own endpoints (filter, one policy), so
// the views answer the same over HTTP and through the local engine. The computations over the
// answers are the pure functions beside this file.
import type { ApiClient } from "../backend/client.js";
import { isRealDate, type Policy, type PolicyDetail } from "../contract/index.js";
import { compareCodePoints } from "../domain/compare.js";
import { NotFoundError, UsageError } from "../errors.js";
import { editDistance } from "../requests/catalogue-ids.js";
import { buildNumberProbeBody, findByNumber } from "./find-number.js";
import { buildProbeBody, VersionFinder } from "./find-versions.js";
import { findVersionOn, pickVersion, selectVersions, splitPolicyId } from "./policy-key.js";

/** Policies a `code` or `matrix` view reads at most (20 pages of 100). */
export const MAX_VIEW_ITEMS = 2000;
/** Versions whose details `versions` fetches at most. */
export const MAX_VERSIONS = 200;
/** Details fetched at once. */
const CONCURRENCY = 4;

/** What finds the versions of a key. */
export type KeyVersions = Pick<VersionFinder, "versionsOf">;

/**
 * A finder of versions over this client's filter endpoint; over the local engine, its series
 * index gives the same versions without the probes (the same selection and order).
 */
export function createVersionFinder(client: ApiClient): KeyVersions {
  const local = client.transport.versionsOf?.bind(client.transport);
  if (local) return { versionsOf: async (key) => selectVersions(await local(key), key) };
  return new VersionFinder((offset) => client.filter(client.build.filter(buildProbeBody(offset))));
}

/**
 * Every page of a filter body (offset advanced by the items received), for views that need the
 * whole answer; stops with a clear error past MAX_VIEW_ITEMS.
 */
export async function fetchAllPolicies(
  client: ApiClient,
  body: Record<string, unknown>,
  hint: (loc: Array<string | number>) => string | undefined,
  warn: (message: string) => void,
  maxItems = MAX_VIEW_ITEMS,
): Promise<Policy[]> {
  const items: Policy[] = [];
  for (let offset = 0; ;) {
    const page = await client.filter(client.build.filter({ ...body, offset }, hint));
    items.push(...page.data);
    if (page.offset !== offset) {
      warn(
        `the server answered offset ${page.offset} when asked for ${offset}; it ignores paging (sandbox?), so this view shows its first page only`,
      );
      return items;
    }
    if (!page.has_more || page.data.length === 0) return items;
    if (items.length >= maxItems)
      throw new UsageError(
        `more than ${maxItems} policies list this code; the view stops there`,
        "Narrow it with --state, --lob, --payer or --effective-on.",
      );
    offset += page.data.length;
  }
}

/** Runs `task` over `inputs`, a few at a time, keeping the order. */
export async function mapLimited<I, O>(
  inputs: readonly I[],
  task: (i: I) => Promise<O>,
): Promise<O[]> {
  const out = new Array<O>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      out[i] = await task(inputs[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, inputs.length) }, worker));
  return out;
}

/** A memo of policy details: each id fetched once per run. */
export function createDetailCache(client: ApiClient): (id: string) => Promise<PolicyDetail> {
  const cache = new Map<string, Promise<PolicyDetail>>();
  return (id) => {
    let d = cache.get(id);
    if (!d) cache.set(id, (d = client.policy(client.build.policy(id))));
    return d;
  };
}

/**
 * The two ids `diff ARG` compares: for a key, its two latest versions; for one version id, that
 * version and the one before it (what changed in it).
 */
export async function findDiffPair(client: ApiClient, arg: string): Promise<[string, string]> {
  const parts = splitPolicyId(arg);
  const key = parts?.key ?? arg;
  const found = await findVersionsOrFail(createVersionFinder(client), key, client);
  const at = parts ? found.findIndex((v) => v.policy_id === arg) : found.length - 1;
  if (at < 0)
    throw new NotFoundError(`${key} has no version ${arg}`, "Give one of the ids listed.", [
      `versions: ${listVersions(found)}`,
    ]);
  if (at === 0)
    throw new UsageError(
      found.length === 1
        ? `${key} has one version (${found[0]!.policy_id}); there is nothing to compare`
        : `${arg} is the first version of ${key}; there is nothing before it to compare`,
      "Compare two policies by their ids: coverage diff OLD_ID NEW_ID.",
    );
  return [found[at - 1]!.policy_id, found[at]!.policy_id];
}

/** The versions of a key, or a not-found error that says how to find the key. */
export async function findVersionsOrFail(
  finder: KeyVersions,
  key: string,
  client?: ApiClient,
): Promise<Policy[]> {
  // An empty key, or one with an empty segment (a slash too many), can name no policy: a typo
  // to point at (exit 2), not a policy that was looked for and not found (exit 4).
  if (key.split("/").some((segment) => segment === ""))
    throw new UsageError(
      `'${key}' is not a policy key: it has an empty segment`,
      "Write the id without its date and without a leading, trailing or double slash, e.g. cms-lcd/L33718.",
    );
  const versions = await finder.versionsOf(key);
  if (versions.length === 0) {
    const plain = new NotFoundError(
      `no versions of policy '${key}' were found`,
      "A policy key is the id without its date (cms-lcd/L33718); find ids with `coverage search`.",
    );
    throw client ? await explainUnknownPolicy(client, key, plain) : plain;
  }
  return versions;
}

/**
 * Why an id or key named no policy, when it is close to one: the same key in another case
 * (`CMS-LCD/l33718`), or a policy number (`L33718`) whose key is then suggested. The original
 * error when neither helps. Costs the probes of a version look-up (see VersionFinder,
 * findByNumber), on the error path only.
 */
export async function explainUnknownPolicy(
  client: ApiClient,
  arg: string,
  original: NotFoundError,
): Promise<NotFoundError> {
  const parts = splitPolicyId(arg);
  const key = parts?.key ?? arg;
  const finder = createVersionFinder(client);
  // Ids are lower-case sources and upper-case numbers in most catalogues (cms-lcd/L33718).
  const [source, ...rest] = key.split("/");
  const spellings = [
    [source?.toLowerCase(), ...rest.map((r) => r.toUpperCase())].join("/"),
    [source?.toLowerCase(), ...rest].join("/"),
    key.toLowerCase(),
    key.toUpperCase(),
  ].filter((k, i, all) => k !== key && all.indexOf(k) === i);
  for (const spelled of spellings) {
    const versions = await finder.versionsOf(spelled);
    if (versions.length === 0) continue;
    const same = parts && versions.find((v) => v.policy_id.toLowerCase() === arg.toLowerCase());
    return new NotFoundError(
      `${original.message}: ids are case-sensitive; did you mean ${same ? same.policy_id : spelled}?`,
      `The versions of ${spelled}: ${listVersions(versions)}.`,
    );
  }
  if (key.includes("/")) return withNearKeys(client, key, original);
  const numbered = await findByNumber(
    (offset) => client.filter(client.build.filter(buildNumberProbeBody(offset))),
    key,
  );
  const keys = [...new Set(numbered.map((v) => splitPolicyId(v.policy_id)?.key ?? v.policy_id))];
  if (keys.length === 0) return original;
  return new NotFoundError(
    `'${arg}' is a policy number, not a policy id: its key is ${keys.join(" or ")}`,
    `Give the key (${keys[0]}) for today's version, or a version id: ${listVersions(numbered)}.`,
  );
}

/**
 * The original error, naming the keys that sort beside `key` and are a few edits from it
 * (`cms-lcd/L3371` -> cms-lcd/L33718): an unknown id is an error with the closest ids.
 */
async function withNearKeys(
  client: ApiClient,
  key: string,
  original: NotFoundError,
): Promise<NotFoundError> {
  // The pages sorted by id (a local series index has none to read beside the key).
  const finder = new VersionFinder((offset) =>
    client.filter(client.build.filter(buildProbeBody(offset))),
  );
  // A courtesy: a look-up that fails (a server that does not page by id) names none.
  const ids = await finder.idsNear(key).catch(() => []);
  const keys = [...new Set(ids.map((id) => splitPolicyId(id)?.key ?? id))];
  const limit = Math.max(2, Math.floor(key.length / 4));
  const near = keys
    .map((k) => ({ k, d: editDistance(key.toLowerCase(), k.toLowerCase()) }))
    .filter((c) => c.d <= limit)
    .sort((a, b) => a.d - b.d || compareCodePoints(a.k, b.k))
    .slice(0, 5)
    .map((c) => c.k);
  if (near.length === 0) return original;
  return new NotFoundError(
    original.message,
    `Closest policy keys: ${near.join(", ")}; find ids with \`coverage search\`.`,
  );
}

function listVersions(versions: readonly Policy[]): string {
  return versions
    .map(
      (v) =>
        `${v.policy_id} (${v.effective_from_date}${v.effective_to_date ? ` until ${v.effective_to_date}` : ", open"})`,
    )
    .join(", ");
}

/**
 * The id a `policy` argument stands for: a version id as given; a key (no date segment) as
 * the version in effect today, else the latest; a key without versions as given (the API's 404
 * then speaks).
 */
export async function resolvePolicyArg(
  client: ApiClient,
  arg: string,
  today: string,
): Promise<string> {
  if (splitPolicyId(arg)) return arg;
  const versions = await createVersionFinder(client).versionsOf(arg);
  return pickVersion(versions, today)?.policy_id ?? arg;
}

/**
 * `policy` and `download` alike: a key or a version id (trimmed) to the version id, then `get`
 * of it; a 404 explained (the versions of a key, another case, a policy number's key).
 */
export async function getPolicyByArg<T>(
  client: ApiClient,
  raw: string,
  today: string,
  get: (id: string) => Promise<T>,
): Promise<T> {
  const arg = raw.trim();
  const id = await resolvePolicyArg(client, arg, today);
  return get(id).catch(async (err: unknown) => {
    // Only a policy that was not found is explained ("No file stored" is a policy found).
    if (!(err instanceof NotFoundError) || !err.message.startsWith("Policy not found")) throw err;
    // The explanation is a courtesy: if its look-ups fail, the 404 stands as it was.
    const explained = await explainMissingVersion(client, id, err)
      .then((e) => (e === err ? explainUnknownPolicy(client, arg, err) : e))
      .catch(() => err);
    throw explained;
  });
}

/**
 * A 404 for a version id: the versions of its key that exist, and the one in effect on that
 * date when there is one (the original error when the key has none).
 */
export async function explainMissingVersion(
  client: ApiClient,
  id: string,
  original: NotFoundError,
): Promise<NotFoundError> {
  const parts = splitPolicyId(id);
  if (!parts) return original;
  const versions = await createVersionFinder(client).versionsOf(parts.key);
  if (versions.length === 0) return original;
  // A day that does not exist (2026-02-30) is in effect nowhere: no version is said to be.
  const on = isRealDate(parts.date) ? findVersionOn(versions, parts.date) : undefined;
  return new NotFoundError(
    isRealDate(parts.date)
      ? `no version of ${parts.key} starts on ${parts.date}`
      : `no version of ${parts.key} starts on ${parts.date}, which is not a real date`,
    on
      ? `The version in effect on ${parts.date} is ${on.policy_id}; or give the key alone (${parts.key}) for today's.`
      : `Give the key alone (${parts.key}) for today's version, or one of the ids listed.`,
    [`versions: ${listVersions(versions)}`],
  );
}
