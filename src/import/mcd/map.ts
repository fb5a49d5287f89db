import type { CodeSystem, LobCategory } from "../../contract/index.js";

// The pure rules of mcd-import.md, one named place each (table-tested in
// test/unit/import/mcd-map.test.ts).

/**
 * The date part of an export date (`YYYY-MM-DD HH:MM:SS[.fffffffff]`, up to 9 fractional digits): null for an empty field,
 * undefined for a value that is not a real date.
 */
export function toDate(value: string): string | null | undefined {
  const v = value.trim();
  if (v === "") return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?$/.exec(v);
  if (!m) return undefined;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d)
    ? `${y}-${mo}-${d}`
    : undefined;
}

/** The first non-empty date of a list, in that order of preference (undefined: a bad one first). */
export function firstDate(values: string[]): string | null | undefined {
  for (const value of values) {
    const date = toDate(value);
    if (date !== null) return date;
  }
  return null;
}

/** An HCPCS/CPT list's code: 5 digits, or 4 digits and F, T or U, is CPT; the rest HCPCS. */
export function classifyProcedureCode(code: string): CodeSystem {
  return /^\d{5}$|^\d{4}[FTU]$/i.test(code) ? "CPT" : "HCPCS";
}

/** A modifier: two digits is a CPT modifier, anything else an HCPCS one. */
export function classifyModifier(code: string): CodeSystem {
  return /^\d{2}$/.test(code) ? "CPT_MODIFIER" : "HCPCS_MODIFIER";
}

/** Whether an LCD or article row is a proposed or draft document (left out of the import). */
export function isProposed(status: string, displayId: string, draftPrefix: "DL" | "DA"): boolean {
  return (
    status.trim().toUpperCase() === "P" || displayId.trim().toUpperCase().startsWith(draftPrefix)
  );
}

/** A contractor subtype or type the import does not know: an error naming it, never a guess. */
export class UnknownContractorKind extends Error {
  constructor(
    readonly kind: "subtype" | "type",
    readonly description: string,
  ) {
    super(`contractor ${kind} '${description}'`);
  }
}

// mcd-import.md, "What the real export showed": the subtypes by their real names (and the
// names of the page's first version, which synthetic exports use), exactly.
const SUBTYPES: Record<string, LobCategory[]> = {
  "MAC A": ["medicare_part_a"],
  "MAC B": ["medicare_part_b"],
  "HHH MAC": ["medicare_part_a"],
  "DME MAC": ["medicare_part_b"],
  "MAC - PART A": ["medicare_part_a"],
  "MAC - PART B": ["medicare_part_b"],
};

/**
 * The LOB categories a contractor's documents apply to: from its subtype when it has one
 * (`MAC A`, `HHH MAC`: Part A; `MAC B`, `DME MAC`: Part B), else from its type (`A and B`
 * types: both; `Part A`, intermediary and `HHH` types: Part A; `Part B`, carrier and `DME`
 * types: Part B). Throws UnknownContractorKind for a subtype or type it does not know.
 */
export function lobsOfContractor(type: string, subtype: string): LobCategory[] {
  const sub = subtype.trim().replace(/\s+/g, " ");
  if (sub) {
    const lobs = SUBTYPES[sub.toUpperCase()];
    if (!lobs) throw new UnknownContractorKind("subtype", sub);
    return [...lobs];
  }
  const t = type.trim().replace(/\s+/g, " ");
  if (/\bA and B\b/i.test(t)) return ["medicare_part_a", "medicare_part_b"];
  if (/\bDME(?:RC)?\b|\bPart B\b|\bCarrier\b/i.test(t)) return ["medicare_part_b"];
  if (/\bHHH\b|\bPart A\b|\bIntermediary\b|\bRHHI\b/i.test(t)) return ["medicare_part_a"];
  throw new UnknownContractorKind("type", t);
}

/** Text cut at a word to at most `max` characters, `…` marking the cut; null when empty. */
export function cutAtWord(text: string, max: number): string | null {
  if (text === "") return null;
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/**
 * A code group's category: its paragraph's plain text cut at 120 characters; null when there is
 * none or it is a placeholder (`<p>N/A</p>` in the real export).
 */
export function toCategory(plainText: string): string | null {
  const text = plainText.slice(0, 120).trim();
  if (text === "" || /^(?:N\/?A|none)\.?$/i.test(text)) return null;
  // A cut string is a view of its whole paragraph in V8; a category outlives the paragraph, so
  // it is copied (a bomb of distinct paragraphs otherwise held each one whole).
  return text.length < plainText.length ? Buffer.from(text, "utf8").toString("utf8") : text;
}

/** ICD-10-CM code as the catalogue stores it: dotted after the third character. */
export function dottedIcd10(code: string): string {
  const bare = code.trim().toUpperCase().replaceAll(".", "");
  return bare.length > 3 ? `${bare.slice(0, 3)}.${bare.slice(3)}` : bare;
}
