import { UsageError } from "../errors.js";
import {
  integerish,
  parseCodeFlag,
  parseLobs,
  parseRelationships,
  parseStates,
  splitList,
} from "./parse-flags.js";

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
  sort?: string;
  limit?: string;
  offset?: string;
  applicability?: boolean;
  codeGroups?: boolean;
  all?: boolean;
}

type Json = Record<string, unknown>;

function defined(obj: Json): Json {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Page size for `--all` when `--limit` is not given: the API's maximum, fewest round trips. */
export const ALL_PAGE_SIZE = 100;

/**
 * Maps `search` flags (and an optional `--body` object) to the filter request body, with only
 * the fields the user set. Values are left for the contract's schema to validate.
 */
export function buildSearchRequest(flags: SearchFlags, baseBody?: unknown): Json {
  if (baseBody !== undefined && !isObject(baseBody))
    throw new UsageError(
      "--body must hold a JSON object",
      'Example: {"policies": {"q": "sleep apnea"}}',
    );
  const base: Json = baseBody ?? {};
  const basePolicies = isObject(base.policies) ? base.policies : undefined;

  const words = flags.words?.join(" ").trim();
  if (words && flags.query !== undefined)
    throw new UsageError(
      "give the search words or --query, not both",
      'Example: coverage search --query "sleep apnea"',
    );
  if (flags.effectiveOn && (flags.effectiveStart || flags.effectiveEnd))
    throw new UsageError(
      "--effective-on cannot be combined with --effective-start or --effective-end",
      "--effective-on DATE is short for --effective-start DATE --effective-end DATE.",
    );

  const refs = flags.code?.length ? flags.code.map(parseCodeFlag) : undefined;
  const baseCodeRefs =
    basePolicies && isObject(basePolicies.code_refs) ? basePolicies.code_refs : undefined;
  let codeRefs: Json | undefined =
    refs || flags.match !== undefined || baseCodeRefs
      ? defined({
          ...baseCodeRefs,
          ...(refs ? { refs } : {}),
          match: flags.match ?? baseCodeRefs?.match,
        })
      : undefined;
  if (flags.relationship?.length) {
    const relationship = parseRelationships(flags.relationship);
    if (!codeRefs || !Array.isArray(codeRefs.refs))
      throw new UsageError(
        "--relationship needs --code",
        "Example: --code CPT:97110 --relationship covers",
      );
    codeRefs = {
      ...codeRefs,
      refs: codeRefs.refs.map((r: unknown) => (isObject(r) ? { ...r, relationship } : r)),
    };
  }

  const start = flags.effectiveOn ?? flags.effectiveStart;
  const end = flags.effectiveOn ?? flags.effectiveEnd;
  const baseWindow =
    basePolicies && isObject(basePolicies.effective_date) ? basePolicies.effective_date : undefined;
  const window =
    start !== undefined || end !== undefined ? defined({ ...baseWindow, start, end }) : undefined;

  const policies = defined({
    q: words || flags.query,
    code_refs: codeRefs,
    payer_ids: splitList(flags.payer),
    lobs: parseLobs(flags.lob),
    lob_ids: splitList(flags.lobId),
    states: parseStates(flags.state),
    effective_date: window,
    retired: flags.retired,
  });
  const mergedPolicies =
    basePolicies || Object.keys(policies).length ? { ...basePolicies, ...policies } : undefined;

  return defined({
    ...base,
    policies: mergedPolicies ?? base.policies,
    sort: flags.sort ?? base.sort,
    limit: integerish(flags.limit) ?? base.limit ?? (flags.all ? ALL_PAGE_SIZE : undefined),
    offset: integerish(flags.offset) ?? base.offset,
    include_applicability: flags.applicability || base.include_applicability,
    include_code_groups: flags.codeGroups || base.include_code_groups,
  });
}

const FLAG_FOR: Array<[string, string]> = [
  ["body.policies.code_refs.match", "--match"],
  ["body.policies.code_refs", "--code"],
  ["body.policies.payer_ids", "--payer"],
  ["body.policies.lob_ids", "--lob-id"],
  ["body.policies.lobs", "--lob"],
  ["body.policies.states", "--state"],
  ["body.policies.effective_date.start", "--effective-start"],
  ["body.policies.effective_date.end", "--effective-end"],
  ["body.policies.retired", "--retired"],
  ["body.policies.q", "--query"],
  ["body.sort", "--sort"],
  ["body.limit", "--limit"],
  ["body.offset", "--offset"],
];

/** The flag that sets a body location, to name it beside a validation message. */
export function searchFlagFor(loc: Array<string | number>): string | undefined {
  const path = loc.join(".");
  return FLAG_FOR.find(([prefix]) => path === prefix || path.startsWith(`${prefix}.`))?.[1];
}
