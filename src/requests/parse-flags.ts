import {
  CodeSystem,
  isRealDate,
  Relationship,
  safeParseBounded,
  StateCode,
} from "../contract/index.js";
import { UsageError } from "../errors.js";
import { checkCodeFormats, guessCodeSystem } from "./code-formats.js";
import { stateCodeForName } from "./state-names.js";

const SYSTEM_ALIASES: Record<string, CodeSystem> = {
  CPT: "CPT",
  CPT_MODIFIER: "CPT_MODIFIER",
  "CPT-MODIFIER": "CPT_MODIFIER",
  HCPCS: "HCPCS",
  HCPCS_MODIFIER: "HCPCS_MODIFIER",
  "HCPCS-MODIFIER": "HCPCS_MODIFIER",
  ICD10CM: "ICD10CM",
  ICD10: "ICD10CM",
  "ICD-10-CM": "ICD10CM",
  "ICD-10": "ICD10CM",
};
const PCS = new Set(["ICD10PCS", "ICD-10-PCS", "ICD_10_PCS"]);
/** The code system a name stands for (any case, with its aliases), `PCS` for ICD-10-PCS, else undefined. */
export function findCodeSystem(name: string): CodeSystem | "PCS" | undefined {
  const upper = name.trim().toUpperCase();
  return PCS.has(upper) ? "PCS" : SYSTEM_ALIASES[upper];
}
export const SYSTEMS_HELP =
  "CPT, CPT_MODIFIER, HCPCS, HCPCS_MODIFIER, ICD10CM (aliases ICD10, ICD-10-CM, CPT-MODIFIER, HCPCS-MODIFIER)";

/** Splits comma-separated, possibly repeated flag values; blanks dropped. */
export function splitList(values: readonly string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const out = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  return out;
}

/** `--code SYSTEM:CODE[,CODE...]` as one code reference. */
export function parseCodeFlag(
  raw: string,
  flag = "--code",
): { code_system: CodeSystem; codes: string[] } {
  const colon = raw.indexOf(":");
  // A positional code (`coverage code 97110`) is named as the user gave it, not as --code.
  const shown = flag ? `${flag} ` : "";
  const where = flag ? `${flag} '${raw}'` : `'${raw}'`;
  if (colon < 0) {
    const guess = guessCodeSystem(raw);
    throw new UsageError(
      `${where} has no code system`,
      guess
        ? `Did you mean ${shown}${guess}:${raw.trim()}? Write SYSTEM:CODE; systems: ${SYSTEMS_HELP}.`
        : `Write SYSTEM:CODE, e.g. ${shown}CPT:97110; systems: ${SYSTEMS_HELP}.`,
    );
  }
  const name = raw.slice(0, colon).trim().toUpperCase();
  if (PCS.has(name))
    throw new UsageError(
      `${where}: the filter does not accept ICD-10-PCS codes`,
      `Use one of ${SYSTEMS_HELP}; ICD-10-CM diagnoses are ICD10CM.`,
    );
  const system = SYSTEM_ALIASES[name];
  if (!system)
    throw new UsageError(
      `${where}: unknown code system '${raw.slice(0, colon)}'`,
      `Use one of ${SYSTEMS_HELP}.`,
    );
  const codes = splitList([raw.slice(colon + 1)]) ?? [];
  if (codes.length === 0)
    throw new UsageError(
      `${where} names no code`,
      "Write at least one code after the colon, e.g. CPT:97110,97112.",
    );
  checkCodeFormats(flag, system, codes);
  return { code_system: system, codes };
}

/** `--relationship covers,does-not-cover,...` (any case, `_` or `-`) as the API's enum values. */
export function parseRelationships(values: readonly string[]): Relationship[] {
  return (splitList(values) ?? []).map((v) => {
    const rel = v.toUpperCase().replaceAll("-", "_");
    const parsed = safeParseBounded(Relationship, rel);
    if (!parsed.success)
      throw new UsageError(
        `--relationship '${v}' is not a relationship`,
        "Use covers, does-not-cover or references (comma-separated for several).",
      );
    return parsed.data;
  });
}

/**
 * A list flag's values (repeatable, comma-separated); a flag given with only blanks is an
 * error rather than an empty list, which would match nothing.
 */
export function requireList(
  values: readonly string[] | undefined,
  flag: string,
): string[] | undefined {
  const list = splitList(values);
  if (list && list.length === 0)
    throw new UsageError(`${flag} needs at least one value`, `Example: ${flag} VALUE[,VALUE...]`);
  return list;
}

/** An enum-valued flag (`--sort`, `--match`) in the API's lower case; the schema checks it. */
export function parseEnumFlag(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : raw.trim().toLowerCase().replaceAll("-", "_");
}

/** A whole-number flag as a number, anything else left as typed for the schema to report. */
export function integerish(raw: string | undefined): number | string | undefined {
  if (raw === undefined) return undefined;
  return /^[+-]?\d+$/.test(raw.trim()) ? Number(raw) : raw;
}

/** `--lob` values: lower case, `-` read as `_` (so `medicare-advantage` works). */
export function parseLobs(values: readonly string[] | undefined): string[] | undefined {
  return splitList(values)?.map((v) => v.toLowerCase().replaceAll("-", "_"));
}

/**
 * `--state` values in upper case (the schema then checks them against the spec's list); a state
 * written out in full is refused with its code (`--state California` -> CA).
 */
export function parseStates(values: readonly string[] | undefined): string[] | undefined {
  return splitList(values)?.map((v) => {
    const upper = v.toUpperCase();
    const code = safeParseBounded(StateCode, upper).success ? undefined : stateCodeForName(v);
    if (code)
      throw new UsageError(
        `--state '${v}' is a state name; --state takes its code: did you mean --state ${code}?`,
        `Example: --state ${code} (several: --state ${code},NY).`,
      );
    return upper;
  });
}

/**
 * A date flag checked before any request: the shape `YYYY-MM-DD` and a day that exists, one
 * message per flag (the schema would name each end of the window it fills).
 */
export function parseDateFlag(flag: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (isRealDate(value)) return value;
  throw new UsageError(
    /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? `${flag} '${raw}' is not a real date`
      : `${flag} '${raw}' is not a date in the form YYYY-MM-DD`,
    `Example: ${flag} 2026-01-31`,
  );
}
