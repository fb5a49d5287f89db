import { LOB_CATEGORIES } from "../contract/index.js";
import { UsageError } from "../errors.js";

/** The kinds of id that match the catalogue case-insensitively. */
export type IdKind = "payer" | "lob";

const CATEGORIES = LOB_CATEGORIES.join("|");
// The catalogue's spelling: payer ids in upper case (AETNA, CMS); LOB ids the payer id, the
// category in lower case and a state code or US in upper case (CMS_medicare_part_b_NF), or
// the filter's variant with a trailing separator (AETNA_commercial_).
const SPELLING: Record<IdKind, RegExp> = {
  payer: /^[^a-z]+$/,
  lob: new RegExp(`^[^a-z]+_(?:${CATEGORIES})_[A-Z]*$`),
};

/**
 * Whether an id is already in the catalogue's spelling, so it is sent as typed without asking
 * for the payer or LOB list (README "Payer and LOB ids").
 */
export function hasCatalogueSpelling(kind: IdKind, id: string): boolean {
  return SPELLING[kind].test(id);
}

/** The ids of a list that need the catalogue to be spelled right. */
export function findIdsToRespell(kind: IdKind, ids: readonly unknown[] | undefined): string[] {
  return (ids ?? []).filter(
    (id): id is string => typeof id === "string" && !hasCatalogueSpelling(kind, id),
  );
}

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
  const near = known.filter((k) => k.toLowerCase().includes(lower.replace(/_+$/, ""))).slice(0, 8);
  const shown = (near.length ? near : known.slice(0, 12)).join(", ");
  throw new UsageError(
    `${flag} '${id}' is not a ${WHAT[kind].name} of the catalogue (compared ignoring case)`,
    `${near.length ? "Close" : "Some"} ${WHAT[kind].name}s: ${shown}${known.length > 12 && !near.length ? ", …" : ""}; \`${WHAT[kind].list}\` lists them all.`,
  );
}

/**
 * Ids in the catalogue's spelling: an id is matched case-insensitively against `known` (`aetna`
 * -> AETNA); one the catalogue lacks is an error naming the flag, with ids it does have.
 */
export function respellIds(
  kind: IdKind,
  ids: readonly string[],
  known: readonly string[],
  flag: string,
): string[] {
  return ids.map((id) => (hasCatalogueSpelling(kind, id) ? id : respellOne(kind, id, known, flag)));
}

/** Where a request holds ids of a kind, and the flag that sets them. */
export interface IdField {
  path: readonly string[];
  kind: IdKind;
  flag: string;
}

type Json = Record<string, unknown>;

function readPath(obj: Json, path: readonly string[]): unknown {
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
 * The request input with its payer and LOB ids in the catalogue's spelling. A list is asked for
 * (through `list`, once per kind) only when some id is not already spelled that way; otherwise
 * the input comes back as it was, and no request is made.
 */
export async function respellInput(
  input: Json,
  fields: readonly IdField[],
  list: (kind: IdKind) => Promise<string[]>,
): Promise<Json> {
  const lists = new Map<IdKind, Promise<string[]>>();
  let out = input;
  for (const field of fields) {
    const ids = readPath(input, field.path);
    if (!Array.isArray(ids) || findIdsToRespell(field.kind, ids).length === 0) continue;
    if (!lists.has(field.kind)) lists.set(field.kind, list(field.kind));
    const known = await lists.get(field.kind)!;
    const strings = ids.filter((id): id is string => typeof id === "string");
    out = writePath(out, field.path, respellIds(field.kind, strings, known, field.flag));
  }
  return out;
}
