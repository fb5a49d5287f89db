import type { CodeSystem } from "../contract/index.js";
import { UsageError } from "../errors.js";

/** What a code of one system looks like, and what to call such a code in a message. */
interface CodeFormat {
  /** Tested on the code trimmed and upper-cased (the engine's normalisation, rules.md Filter 5). */
  pattern: RegExp;
  /** "a CPT code", as in "E0601 is a HCPCS Level II code". */
  name: string;
  /** The shape in words, for the message when no system fits. */
  shape: string;
}

/**
 * The formats of the code systems `--code` accepts, in the one place they are defined (README
 * "Codes"). The order is the order of the suggestions: a letter and four digits reads first as
 * HCPCS, which ICD-10-CM's looser shape also allows.
 */
export const CODE_FORMATS: Record<CodeSystem, CodeFormat> = {
  CPT: {
    pattern: /^(?:\d{5}|\d{4}[FTU])$/,
    name: "a CPT code",
    shape: "5 digits, or 4 digits and F, T or U (97110, 3008F)",
  },
  // Level I is CPT (the spec's format table): HCPCS takes CPT-shaped codes too.
  HCPCS: {
    pattern: /^(?:[A-Z]\d{4}|\d{5}|\d{4}[FTU])$/,
    name: "a HCPCS Level II code",
    shape: "a letter and 4 digits (E0601), or a Level I code shaped as CPT (97110)",
  },
  ICD10CM: {
    pattern: /^[A-Z]\d[0-9A-Z](?:\.?[0-9A-Z]{1,4})?$/,
    name: "an ICD-10-CM code",
    shape:
      "a letter, a digit, a letter or digit, then optionally a dot and up to 4 letters or digits (M25.561)",
  },
  CPT_MODIFIER: {
    pattern: /^[0-9A-Z]{2}$/,
    name: "a CPT modifier",
    shape: "2 letters or digits (59)",
  },
  HCPCS_MODIFIER: {
    pattern: /^[0-9A-Z]{2}$/,
    name: "a HCPCS modifier",
    shape: "2 letters or digits (KX)",
  },
};

const SYSTEMS = Object.keys(CODE_FORMATS) as CodeSystem[];

/** "An ICD-10-CM code is a letter, ...": the sentence a message gives as the fix. */
export function describeCodeFormat(system: CodeSystem): string {
  const { name, shape } = CODE_FORMATS[system];
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} is ${shape}.`;
}

/** Whether a code has its system's format (compared trimmed and in upper case). */
export function hasCodeFormat(system: CodeSystem, code: string): boolean {
  return CODE_FORMATS[system].pattern.test(code.trim().toUpperCase());
}

/** The first system whose format the code has, to suggest when the one given does not fit. */
export function guessCodeSystem(code: string): CodeSystem | undefined {
  return SYSTEMS.find((s) => hasCodeFormat(s, code));
}

/**
 * Refuses a `--code` value whose codes do not have the system's format (exit 2): a space inside
 * a code shows the comma form; a code of another system names it (`did you mean HCPCS:E0601?`).
 */
export function checkCodeFormats(flag: string, system: CodeSystem, codes: string[]): void {
  // "" for a positional code: the messages then name the code alone.
  const f = flag ? `${flag} ` : "";
  const spaced = codes.filter((c) => /\s/.test(c));
  if (spaced.length)
    throw new UsageError(
      `${f}'${spaced[0]}': a code cannot hold a space`,
      `Separate several codes with commas: ${f}${system}:${codes.flatMap((c) => c.split(/\s+/)).join(",")}`,
    );
  for (const code of codes) {
    if (hasCodeFormat(system, code)) continue;
    const other = guessCodeSystem(code);
    const shown = code.trim();
    if (other)
      throw new UsageError(
        `${f}${system}:${shown}: ${shown} is ${CODE_FORMATS[other].name}: did you mean ${other}:${shown}?`,
        `Write ${f}${other}:${shown} (the system before the colon names the code set).`,
      );
    throw new UsageError(
      `${f}${system}:${shown}: '${shown}' is not ${CODE_FORMATS[system].name}`,
      describeCodeFormat(system),
    );
  }
}

/**
 * The stderr line for a `HCPCS:` ref of CPT-shaped (Level I) codes that found nothing: such
 * codes are listed as CPT. Undefined when no ref has one.
 */
export function levelOneHint(
  refs: ReadonlyArray<{ code_system: string; codes: readonly string[] }>,
): string | undefined {
  const levelOne = refs
    .filter((r) => r.code_system === "HCPCS")
    .flatMap((r) => r.codes.map((c) => c.trim().toUpperCase()))
    .filter((c) => CODE_FORMATS.CPT.pattern.test(c));
  if (levelOne.length === 0) return undefined;
  const cpt = `CPT:${levelOne.join(",")}`;
  return `HCPCS:${levelOne.join(",")} found nothing: HCPCS Level I codes are CPT codes, and policies list them as CPT; try ${cpt}.`;
}

/** `levelOneHint` for the code refs of a filter body (`policies.code_refs.refs`). */
export function levelOneHintForBody(body: unknown): string | undefined {
  const refs = (body as { policies?: { code_refs?: { refs?: unknown } } } | undefined)?.policies
    ?.code_refs?.refs;
  if (!Array.isArray(refs)) return undefined;
  return levelOneHint(
    refs.filter(
      (r): r is { code_system: string; codes: string[] } =>
        typeof r === "object" &&
        r !== null &&
        typeof (r as { code_system?: unknown }).code_system === "string" &&
        Array.isArray((r as { codes?: unknown }).codes) &&
        (r as { codes: unknown[] }).codes.every((c) => typeof c === "string"),
    ),
  );
}
