import type { CodeReference, Policy } from "../contract/index.js";
import {
  describeApplicability,
  describeCodeGroup,
  listLobs,
  listPayers,
  listStates,
  summarizeVerdict,
} from "../views/coverage-summary.js";
import { describePayerScopes, formatScopes } from "../domain/scopes.js";
import { versionStatus } from "../domain/status.js";
import { APPLICABILITY_COLUMNS, CODE_GROUP_COLUMNS, POLICY_FIELDS } from "./columns.js";
import type { OutputFormat } from "./format.js";

/** What the table and CSV of a search depend on in the request the user asked for. */
export interface SearchShape {
  /** The asked codes (the verdict column is about them). */
  refs: CodeReference[];
  /** Whether `q` was given (the score column then stays, blank where nothing matched). */
  words: boolean;
  applicability: boolean;
  codeGroups: boolean;
}

type Json = Record<string, unknown>;
const objectOf = (v: unknown): Json =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};

/** The shape of a filter body (flags and `--body` merged, not yet validated). */
export function readSearchShape(body: Json): SearchShape {
  const policies = objectOf(body.policies);
  const refs = objectOf(policies.code_refs).refs;
  return {
    refs: Array.isArray(refs) ? (refs as CodeReference[]) : [],
    words: typeof policies.q === "string" && policies.q.trim() !== "",
    applicability: body.include_applicability === true,
    codeGroups: body.include_code_groups === true,
  };
}

/**
 * The columns shown when `--fields` is not given. The table answers the analyst's question
 * (each payer with its own scopes, the verdict on the asked codes, the status); the CSV keeps
 * every field, with applicability flattened to payers and `scopes` (`PAYER_ID lob STATE;...`,
 * each scope with its payer), and the score only when words rank the results.
 */
export function chooseSearchColumns(
  format: OutputFormat,
  shape: SearchShape,
  items: readonly Policy[] = [],
): string[] {
  const codes = shape.refs.length > 0;
  if (format === "csv")
    return [
      ...POLICY_FIELDS.filter(
        (f) => f !== "applicability" && f !== "code_groups" && (f !== "score" || shape.words),
      ),
      "payer_ids",
      "payer_names",
      "scopes",
      "status",
      ...(codes ? ["verdict"] : []),
      ...(shape.codeGroups ? ["code_groups"] : []),
    ];
  return [
    "policy_id",
    "title",
    "policy_number",
    "scope",
    ...(codes ? ["verdict"] : []),
    "status",
    "effective_from_date",
    ...(items.some((p) => p.effective_to_date !== null) ? ["effective_to_date"] : []),
    ...(shape.words ? ["score"] : []),
    ...(shape.applicability ? ["applicability"] : []),
    ...(shape.codeGroups ? ["code_groups"] : []),
  ];
}

/** The filter body to send for a table or CSV: applicability and code groups when shown. */
export function widenSearchBody(
  body: Json,
  fields: string[] | undefined,
  format: OutputFormat,
): Json {
  const columns = fields ?? chooseSearchColumns(format, readSearchShape(body));
  const wide = { ...body };
  if (columns.some((c) => APPLICABILITY_COLUMNS.includes(c))) wide.include_applicability = true;
  if (columns.some((c) => CODE_GROUP_COLUMNS.includes(c))) wide.include_code_groups = true;
  return wide;
}

/** The value of one search column for a policy: a string, a list, a number, or null. */
export function readPolicyColumn(
  p: Policy,
  name: string,
  shape: SearchShape,
  today: string,
): unknown {
  const scopes = p.applicability ?? [];
  switch (name) {
    case "payer_names":
    case "payer_ids":
      return listPayers(scopes, name);
    case "lobs":
      return listLobs(scopes);
    case "states":
      return listStates(scopes);
    case "scope":
      return describePayerScopes(scopes);
    case "scopes":
      return formatScopes(scopes);
    case "verdict":
      return shape.refs.length ? summarizeVerdict(p.code_groups ?? [], shape.refs) : null;
    case "status":
      return versionStatus(p, today);
    case "applicability":
      return scopes.map(describeApplicability);
    case "code_groups":
      return (p.code_groups ?? []).map(describeCodeGroup);
    default:
      return (p as Json)[name];
  }
}
