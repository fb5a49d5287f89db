import type { ApiClient } from "../backend/client.js";
import { confirmPayerByLobs, listCatalogueIds } from "../backend/catalogue-ids.js";
import type { CommandContext } from "../cli/context.js";
import { CliError, ExitCode } from "../errors.js";
import { readPath, respellInput, type IdField, type IdKind } from "../requests/catalogue-ids.js";

// Payer and LOB ids are sent as typed: a right answer costs the requests it always did. The
// catalogue (every payer or LOB, 100 a page) is asked for only when the answer could hide a
// typo: it is empty, the API refused the request, or one of several ids of a kind is in none
// of the answer's items. Then the ids are checked as before (an unknown one is exit 2 with the
// closest ids) and, when the catalogue spells one otherwise (`aetna` -> AETNA), sent again.

type Json = Record<string, unknown>;

/** The id keys of an item, per kind: where an answer says which payers and LOBs it holds. */
const KEYS: Record<IdKind, readonly string[]> = {
  payer: ["payer_id", "payer_ids"],
  lob: ["lob_id", "lob_ids"],
};

/** The ids of each kind given in the input, as typed. */
function typedIds(input: Json, fields: readonly IdField[]): Map<IdKind, string[]> {
  const out = new Map<IdKind, string[]>();
  for (const field of fields) {
    const ids = readPath(input, field.path);
    if (!Array.isArray(ids)) continue;
    const strings = ids.filter((id): id is string => typeof id === "string");
    if (strings.length) out.set(field.kind, [...(out.get(field.kind) ?? []), ...strings]);
  }
  return out;
}

/** Every id value under the kind's keys, anywhere in the items. */
function collectIds(items: readonly unknown[], kind: IdKind): Set<string> {
  const seen = new Set<string>();
  const keys = KEYS[kind];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (v === null || typeof v !== "object") return;
    for (const [key, value] of Object.entries(v as Json)) {
      if (keys.includes(key)) {
        if (typeof value === "string") seen.add(value);
        else if (Array.isArray(value))
          for (const id of value) if (typeof id === "string") seen.add(id);
      } else visit(value);
    }
  };
  visit(items);
  return seen;
}

/** Whether the answer leaves a typed id unproven: no item, or one of several ids in none. */
function mayHideTypo(typed: Map<IdKind, string[]>, items: readonly unknown[]): boolean {
  if (items.length === 0) return true;
  for (const [kind, ids] of typed) {
    // One id and any item: the API's filter matched it.
    if (new Set(ids).size < 2) continue;
    const seen = collectIds(items, kind);
    if (ids.some((id) => !seen.has(id))) return true;
  }
  return false;
}

const isRefusal = (err: unknown) => err instanceof CliError && err.exitCode === ExitCode.usage;

/**
 * Sends the input with its payer and LOB ids as typed and checks them against the catalogue only
 * when the answer could hide a typo; returns the input finally sent and its answer.
 */
export async function sendTypedIds<A>(
  ctx: CommandContext,
  client: ApiClient,
  input: Json,
  fields: readonly IdField[],
  send: (input: Json) => Promise<A>,
  itemsOf: (answer: A) => readonly unknown[],
): Promise<{ input: Json; answer: A }> {
  const typed = typedIds(input, fields);
  if (typed.size === 0) return { input, answer: await send(input) };
  let answer: A | undefined;
  let refusal: unknown;
  try {
    answer = await send(input);
    if (!mayHideTypo(typed, itemsOf(answer))) return { input, answer };
  } catch (err) {
    if (!isRefusal(err)) throw err;
    refusal = err;
  }
  // Throws exit 2 naming an id the catalogue lacks, with the closest ones.
  const spelled = await respellInput(
    input,
    fields,
    (kind) => listCatalogueIds(client, kind, ctx.warn),
    (id) => confirmPayerByLobs(client, id),
  );
  const same = JSON.stringify(spelled) === JSON.stringify(input);
  if (same && refusal !== undefined) throw refusal;
  if (same) return { input, answer: answer as A };
  return { input: spelled, answer: await send(spelled) };
}
