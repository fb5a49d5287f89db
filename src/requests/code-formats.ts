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
  HCPCS: {
    pattern: /^[A-Z]\d{4}$/,
    name: "a HCPCS Level II code",
    shape: "a letter and 4 digits (E0601)",
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
    const { name, shape } = CODE_FORMATS[system];
    throw new UsageError(
      `${f}${system}:${shown}: '${shown}' is not ${name}`,
      `${name.charAt(0).toUpperCase()}${name.slice(1)} is ${shape}.`,
    );
  }
}
