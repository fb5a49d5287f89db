import type { CodeReference } from "../contract/index.js";
import { UsageError } from "../errors.js";
import { PROBE_LIMIT } from "../views/find-versions.js";
import { parseCodeFlag } from "./parse-flags.js";
import { buildSearchRequest, searchFlagFor, type SearchFlags } from "./search.js";

/** The narrowing flags of `code` and `matrix`. */
export interface CodeViewFlags {
  state?: string[];
  lob?: string[];
  payer?: string[];
  effectiveOn?: string;
}

/**
 * `SYSTEM:CODE` as one reference to one code (a view is about one code), the code in upper case
 * as the view shows it (`icd10:m54.5` is ICD10CM M54.5; rule Filter 5 matches it either way).
 */
export function parseOneCode(raw: string, flag?: string): CodeReference {
  const ref = parseCodeFlag(raw, flag ?? "");
  if (ref.codes.length !== 1)
    throw new UsageError(
      `${flag ?? "the code"} '${raw}' names ${ref.codes.length} codes; this view is about one`,
      `Give one, e.g. ${ref.code_system}:${ref.codes[0] ?? "97110"}; \`coverage search --code\` takes several.`,
    );
  return { ...ref, codes: ref.codes.map((c) => c.toUpperCase()) };
}

/**
 * The filter body of `code` and `matrix`: the code, the narrowing flags, the day (`--effective-on`,
 * default today) as the effective window, every version's applicability and code groups, in
 * policy id order (stable across pages), 100 a page.
 */
export function buildCodeViewBody(
  ref: CodeReference,
  flags: CodeViewFlags,
  day: string,
): Record<string, unknown> {
  const search: SearchFlags = {
    code: [`${ref.code_system}:${ref.codes.join(",")}`],
    state: flags.state,
    lob: flags.lob,
    payer: flags.payer,
    effectiveOn: day,
  };
  return {
    ...buildSearchRequest(search),
    sort: "policy_id_asc",
    limit: PROBE_LIMIT,
    include_applicability: true,
    include_code_groups: true,
  };
}

/** The flag behind a validation location of a view's body (`--state`, `--effective-on`...). */
export function codeViewFlagFor(loc: Array<string | number>): string | undefined {
  // The views have one day, not a window: both ends come from --effective-on (or today).
  if (loc.join(".").startsWith("body.policies.effective_date")) return "--effective-on";
  return searchFlagFor(loc);
}
