import { UsageError } from "../errors.js";

/** The kinds of id that match the catalogue case-insensitively. */
export type IdKind = "payer" | "lob";

const WHAT: Record<IdKind, { name: string; list: string }> = {
  payer: { name: "payer id", list: "coverage payers" },
  lob: { name: "LOB id", list: "coverage lobs" },
};

function respellOne(kind: IdKind, id: string, known: readonly string[], flag: string): string {
  if (known.includes(id)) return id;
  const lower = id.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same) return same;
  // `aetna_commercial_`: the filter's nationwide variant, spelled as the LOB it stands for.
  if (kind === "lob" && id.endsWith("_")) {
    const prefix = known.find((k) => k.toLowerCase().startsWith(lower));
    if (prefix) return prefix.slice(0, id.length);
  }
  const near = findClosest(id, known);
  throw new UsageError(
    `${flag} '${id}' is not a ${WHAT[kind].name} of the catalogue (compared ignoring case)`,
    `Closest ${WHAT[kind].name}s: ${near.join(", ")}; \`${WHAT[kind].list}\` lists them all.`,
  );
}

/** Edits (insert, delete, replace) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next.push(
        Math.min(
          (row[j] ?? 0) + 1,
          (next[j - 1] ?? 0) + 1,
          (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
        ),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}

/**
 * The known ids closest to a typo, ignoring case: those that contain it or that it contains
 * first (`AETN`, `CMS_medicare`), then the fewest edits: at most 5 within half the id's
 * length in edits, else the 3 nearest.
 */
export function findClosest(id: string, known: readonly string[]): string[] {
  const typed = id.toLowerCase().replace(/_+$/, "");
  const scored = known.map((k) => {
    const lower = k.toLowerCase();
    const within = typed.length > 1 && (lower.includes(typed) || typed.includes(lower));
    return { k, score: within ? 0 : editDistance(typed, lower) };
  });
  const limit = Math.max(2, Math.ceil(typed.length / 2));
  scored.sort((a, b) => a.score - b.score || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const near = scored.filter((s) => s.score <= limit);
  return (near.length ? near.slice(0, 5) : scored.slice(0, 3)).map((s) => s.k);
}

/**
 * Ids in the catalogue's spelling: an id is matched case-insensitively against `known` (`aetna`
 * -> AETNA); one the catalogue lacks, in whatever case (`AETN`), is an error naming the flag,
 * with the closest ids it does have (cli.md Output: nothing fails silently).
 */
export function respellIds(
  kind: IdKind,
  ids: readonly string[],
  known: readonly string[],
  flag: string,
): string[] {
  return ids.map((id) => respellOne(kind, id, known, flag));
}

/** Where a request holds ids of a kind, and the flag that sets them. */
export interface IdField {
  path: readonly string[];
  kind: IdKind;
  flag: string;
}

type Json = Record<string, unknown>;

/** The value at `path` of a request input (undefined when any step is missing). */
export function readPath(obj: Json, path: readonly string[]): unknown {
  let v: unknown = obj;
  for (const key of path) v = v !== null && typeof v === "object" ? (v as Json)[key] : undefined;
  return v;
}

function writePath(obj: Json, path: readonly string[], value: unknown): Json {
  const [key, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...obj, [key]: value };
  return { ...obj, [key]: writePath((obj[key] ?? {}) as Json, rest, value) };
}

/**
 * The request input with its payer and LOB ids checked against the catalogue and in its
 * spelling. A list is asked for (through `list`, once per kind) only when ids of that kind are
 * given; with none, the input comes back as it was and no request is made.
 */
export async function respellInput(
  input: Json,
  fields: readonly IdField[],
  list: (kind: IdKind) => Promise<string[]>,
  /**
   * A second look for a payer id the payer list lacks: `/v1/payers` holds payers linked to a
   * version, `/v1/lobs` every payer with a LOB (`lobs --payer` of an unlinked payer answers).
   */
  confirmPayer?: (id: string) => Promise<string | undefined>,
): Promise<Json> {
  const lists = new Map<IdKind, Promise<string[]>>();
  let out = input;
  for (const field of fields) {
    const ids = readPath(input, field.path);
    if (!Array.isArray(ids) || !ids.some((id) => typeof id === "string")) continue;
    if (!lists.has(field.kind)) lists.set(field.kind, list(field.kind));
    const known = await lists.get(field.kind)!;
    const strings = ids.filter((id): id is string => typeof id === "string");
    const spelled: string[] = [];
    for (const id of strings)
      try {
        spelled.push(...respellIds(field.kind, [id], known, field.flag));
      } catch (err) {
        const confirmed = field.kind === "payer" ? await confirmPayer?.(id) : undefined;
        if (confirmed === undefined) throw err;
        spelled.push(confirmed);
      }
    out = writePath(out, field.path, spelled);
  }
  return out;
}
