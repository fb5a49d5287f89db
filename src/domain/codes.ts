import type { CodeSystem } from "../contract/index.js";

/** Rule Filter 5: trimmed, upper case, and for ICD-10-CM without dots. */
export function normaliseCode(system: CodeSystem, code: string): string {
  const upper = code.trim().toUpperCase();
  return system === "ICD10CM" ? upper.replaceAll(".", "") : upper;
}

/**
 * Whether `code` normalises (normaliseCode) to `normalised`, without making the string: the
 * verdict column tests every code of a page's groups. ASCII is compared char by char (trim's
 * whitespace, upper case, ICD-10-CM's dots); anything else is normalised as written.
 */
export function normalisesTo(system: CodeSystem, code: string, normalised: string): boolean {
  for (let i = 0; i < code.length; i++)
    if (code.charCodeAt(i) > 127) return normaliseCode(system, code) === normalised;
  let from = 0;
  let to = code.length;
  while (from < to && isAsciiSpace(code.charCodeAt(from))) from++;
  while (to > from && isAsciiSpace(code.charCodeAt(to - 1))) to--;
  const dots = system === "ICD10CM";
  let j = 0;
  for (let i = from; i < to; i++) {
    let c = code.charCodeAt(i);
    if (dots && c === 46) continue;
    if (c >= 97 && c <= 122) c -= 32;
    if (j >= normalised.length || normalised.charCodeAt(j) !== c) return false;
    j++;
  }
  return j === normalised.length;
}

// What String.prototype.trim removes among ASCII: tab, line feed, vertical tab, form feed,
// carriage return, space.
function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** The key of a code in the index and the catalogue. */
export function makeCodeKey(system: CodeSystem, code: string): string {
  return `${system}:${normaliseCode(system, code)}`;
}
