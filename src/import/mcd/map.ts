import type { CodeSystem, LobCategory } from "../../contract/index.js";

// The pure rules of mcd-import.md, one named place each (table-tested in
// test/unit/import/mcd-map.test.ts).

/**
 * The date part of an export date (`YYYY-MM-DD HH:MM:SS[.fff]`): null for an empty field,
 * undefined for a value that is not a real date.
 */
export function toDate(value: string): string | null | undefined {
  const v = value.trim();
  if (v === "") return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.exec(v);
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

/** Whether a code group's paragraph says its codes are not covered (HCPCS/CPT lists only). */
export function saysNotCovered(paragraph: string): boolean {
  return /\bnon[- ]?covered\b|\bnot covered\b|\bnot reasonable and necessary\b/i.test(paragraph);
}

/** Whether an LCD or article row is a proposed or draft document (left out of the import). */
export function isProposed(status: string, displayId: string, draftPrefix: "DL" | "DA"): boolean {
  return (
    status.trim().toUpperCase() === "P" || displayId.trim().toUpperCase().startsWith(draftPrefix)
  );
}

/**
 * The LOB categories a contractor's documents apply to: from its subtype (`MAC - Part A`,
 * `HHH MAC`: Part A; `MAC - Part B`, `DME MAC`: Part B), else from its type (`A and B MAC`
 * and `A and B and HHH MAC`: both; `DME MAC`: Part B). Empty when neither says.
 */
export function lobsOfContractor(type: string, subtype: string): LobCategory[] {
  const fromSubtype = lobsOfDescription(subtype);
  if (fromSubtype.length) return fromSubtype;
  if (/\bA\s+and\s+B\b/i.test(type)) return ["medicare_part_a", "medicare_part_b"];
  return lobsOfDescription(type);
}

function lobsOfDescription(text: string): LobCategory[] {
  if (/\bA\s+and\s+B\b/i.test(text)) return [];
  if (/\bDME(RC)?\b|\bPart\s+B\b|\bCarrier\b/i.test(text)) return ["medicare_part_b"];
  if (/\bHHH\b|\bPart\s+A\b|\bIntermediary\b|\bRHHI\b/i.test(text)) return ["medicare_part_a"];
  return [];
}

/** Text cut at a word to at most `max` characters, `…` marking the cut; null when empty. */
export function cutAtWord(text: string, max: number): string | null {
  if (text === "") return null;
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** A code group's category: its paragraph's plain text cut at 120 characters; null when none. */
export function toCategory(plainText: string): string | null {
  const text = plainText.slice(0, 120).trim();
  return text === "" ? null : text;
}

/** ICD-10-CM code as the catalogue stores it: dotted after the third character. */
export function dottedIcd10(code: string): string {
  const bare = code.trim().toUpperCase().replaceAll(".", "");
  return bare.length > 3 ? `${bare.slice(0, 3)}.${bare.slice(3)}` : bare;
}
