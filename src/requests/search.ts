import { UsageError } from "../errors.js";
import {
  integerish,
  parseCodeFlag,
  parseEnumFlag,
  parseDateFlag,
  parseLobs,
  parseRelationships,
  parseStates,
  requireList,
} from "./parse-flags.js";
import type { IdField } from "./catalogue-ids.js";
import { definedOnly } from "./page.js";

/** The `search` flags as commander hands them over. */
export interface SearchFlags {
  words?: string[];
  query?: string;
  code?: string[];
  relationship?: string[];
  match?: string;
  payer?: string[];
  lob?: string[];
  lobId?: string[];
  state?: string[];
  effectiveStart?: string;
  effectiveEnd?: string;
  effectiveOn?: string;
  retired?: boolean;
  /** `--retired` / `--no-retired` as typed, to refuse both (commander keeps only the last). */
  retiredFlags?: string[];
  sort?: string;
  limit?: string;
  offset?: string;
  applicability?: boolean;
  codeGroups?: boolean;
  all?: boolean;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** `code_refs` from `--code`, `--match` and `--relationship` over the `--body` one, or undefined. */
function mergeCodeRefs(flags: SearchFlags, base: Json | undefined): Json | undefined {
  const refs = flags.code?.length ? flags.code.map((c) => parseCodeFlag(c)) : undefined;
  const match = parseEnumFlag(flags.match);
  if (match !== undefined && !refs && !base)
    throw new UsageError(
      "--match needs --code (it says how several --code refs combine)",
      "Example: --code CPT:97110 --code ICD10CM:M25.561 --match all",
    );
  let codeRefs: Json | undefined =
    refs || match !== undefined || base
      ? definedOnly({ ...base, ...(refs ? { refs } : {}), match: match ?? base?.match })
      : undefined;
  if (flags.relationship?.length) {
    const relationship = parseRelationships(flags.relationship);
    if (relationship.length === 0)
      throw new UsageError(
        "--relationship needs at least one value",
        "Use covers, does-not-cover or references (comma-separated for several).",
      );
    if (!codeRefs || !Array.isArray(codeRefs.refs))
      throw new UsageError(
        "--relationship needs --code",
        "Example: --code CPT:97110 --relationship covers",
      );
    // Applies to every ref, those of --body included: the flag overrides the file.
    codeRefs = {
      ...codeRefs,
      refs: codeRefs.refs.map((r: unknown) => (isObject(r) ? { ...r, relationship } : r)),
    };
  }
  return codeRefs;
}

/** `effective_date` from `--effective-start/-end/-on` over the `--body` one, or undefined. */
function mergeWindow(flags: SearchFlags, base: Json | undefined): Json | undefined {
  if (flags.effectiveOn !== undefined && (flags.effectiveStart || flags.effectiveEnd))
    throw new UsageError(
      "--effective-on cannot be combined with --effective-start or --effective-end",
      "--effective-on DATE is short for --effective-start DATE --effective-end DATE.",
    );
  const on = parseDateFlag("--effective-on", flags.effectiveOn);
  const start = on ?? parseDateFlag("--effective-start", flags.effectiveStart);
  const end = on ?? parseDateFlag("--effective-end", flags.effectiveEnd);
  if (start === undefined && end === undefined) return undefined;
  // Only the ends given by a flag replace the body's: `--effective-end` keeps its `start`.
  const window = { ...base, ...definedOnly({ start, end }) };
  if (
    typeof window.start === "string" &&
    typeof window.end === "string" &&
    window.start > window.end
  )
    throw new UsageError(
      `--effective-start ${window.start} is after --effective-end ${window.end}: the window [start, end] is empty`,
      "Swap the two dates, or use --effective-on DATE for a single day.",
    );
  return window;
}

/** `--retired` or `--no-retired`; both at once would silently keep the last one. */
function parseRetired(flags: SearchFlags): boolean | undefined {
  const given = new Set(flags.retiredFlags);
  if (given.size > 1)
    throw new UsageError(
      "--retired and --no-retired ask for opposite things",
      "Keep one: --retired lists retired versions only, --no-retired those not retired; leave both out for every version.",
    );
  return flags.retired;
}

/**
 * Maps `search` flags (and an optional `--body` object) to the filter request body, with only
 * the fields the user set; flags override the body's fields. Values are left for the
 * contract's schema to validate.
 */
export function buildSearchRequest(flags: SearchFlags, baseBody?: unknown): Json {
  if (baseBody !== undefined && !isObject(baseBody))
    throw new UsageError(
      "--body must hold a JSON object",
      'Example: {"policies": {"q": "sleep apnea"}}',
    );
  const base: Json = baseBody ?? {};
  const basePolicies = isObject(base.policies) ? base.policies : undefined;
  const baseOf = (key: string) =>
    basePolicies && isObject(basePolicies[key]) ? (basePolicies[key] as Json) : undefined;

  const words = flags.words?.join(" ").trim();
  if (words && flags.query !== undefined)
    throw new UsageError(
      "give the search words or --query, not both",
      'Example: coverage search --query "sleep apnea"',
    );

  const policies = definedOnly({
    q: words || flags.query,
    code_refs: mergeCodeRefs(flags, baseOf("code_refs")),
    payer_ids: requireList(flags.payer, "--payer"),
    lobs: parseLobs(requireList(flags.lob, "--lob")),
    lob_ids: requireList(flags.lobId, "--lob-id"),
    states: parseStates(requireList(flags.state, "--state")),
    effective_date: mergeWindow(flags, baseOf("effective_date")),
    retired: parseRetired(flags),
  });
  const mergedPolicies =
    basePolicies || Object.keys(policies).length ? { ...basePolicies, ...policies } : undefined;

  return definedOnly({
    ...base,
    policies: mergedPolicies ?? base.policies,
    sort: parseEnumFlag(flags.sort) ?? base.sort,
    limit: integerish(flags.limit) ?? base.limit,
    offset: integerish(flags.offset) ?? base.offset,
    include_applicability: flags.applicability || base.include_applicability,
    include_code_groups: flags.codeGroups || base.include_code_groups,
  });
}

// Body locations and the flags that set them (with the SearchFlags keys behind each flag).
const FLAG_FOR: Array<[string, string, Array<keyof SearchFlags>]> = [
  ["body.policies.code_refs.match", "--match", ["match"]],
  ["body.policies.code_refs", "--code", ["code", "relationship"]],
  ["body.policies.payer_ids", "--payer", ["payer"]],
  ["body.policies.lob_ids", "--lob-id", ["lobId"]],
  ["body.policies.lobs", "--lob", ["lob"]],
  ["body.policies.states", "--state", ["state"]],
  [
    "body.policies.effective_date.start",
    "--effective-start or --effective-on",
    ["effectiveStart", "effectiveOn"],
  ],
  [
    "body.policies.effective_date.end",
    "--effective-end or --effective-on",
    ["effectiveEnd", "effectiveOn"],
  ],
  ["body.policies.retired", "--retired", ["retired"]],
  ["body.policies.q", "--query", ["query", "words"]],
  ["body.sort", "--sort", ["sort"]],
  ["body.limit", "--limit", ["limit"]],
  ["body.offset", "--offset", ["offset"]],
];

/**
 * The flag that sets a body location, to name it beside a validation message. With `given`,
 * only a flag that was actually used is named (a bad field may come from `--body` instead).
 */
export function searchFlagFor(
  loc: Array<string | number>,
  given?: SearchFlags,
): string | undefined {
  const path = loc.join(".");
  const entry = FLAG_FOR.find(([prefix]) => path === prefix || path.startsWith(`${prefix}.`));
  if (!entry) return undefined;
  const [, flag, keys] = entry;
  if (given && !keys.some((k) => given[k] !== undefined && !isEmptyList(given[k])))
    return undefined;
  return flag;
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

/** The payer and LOB ids of a filter body, matched against the catalogue ignoring case. */
export const SEARCH_ID_FIELDS: readonly IdField[] = [
  { path: ["policies", "payer_ids"], kind: "payer", flag: "--payer" },
  { path: ["policies", "lob_ids"], kind: "lob", flag: "--lob-id" },
];
