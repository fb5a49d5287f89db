// The verdict rules of `coverage check` (cli.md, "Claim checks"): pure functions over the
// filter's answer (policies with applicability and code groups), so the same verdicts come
// from the live API, the local engine, a snapshot and `coverage serve`.
import type { CodeGroup, CodeSystem, Policy } from "../contract/index.js";
import { LOB_CATEGORIES, type LobCategory } from "../contract/index.js";
import { compareCodePoints } from "../domain/compare.js";
import { normaliseCode } from "../domain/codes.js";

import { POLICY_VERDICTS, type PolicyVerdict, type RowVerdict } from "./claim-verdicts.js";

export { CHECK_VERDICTS, POLICY_VERDICTS } from "./claim-verdicts.js";
export type { CheckVerdict, PolicyVerdict } from "./claim-verdicts.js";

/** One claim line, its values checked and spelled as the API spells them. */
export interface ClaimLine {
  procedure: { code_system: CodeSystem; code: string };
  /** ICD-10-CM codes, as typed (compared dotless and in any case). */
  diagnoses: readonly string[];
  /** The states asked, sub-state jurisdictions included; none: every state. */
  states?: readonly string[];
  lob?: string;
  payer?: string;
  /** Date of service, YYYY-MM-DD. */
  date: string;
}

/** One policy behind a row. */
export interface CheckedPolicy {
  policy_id: string;
  verdict: PolicyVerdict;
  /** Where the line's diagnosis is listed (`supported`, `diagnosis not covered`), else null. */
  category: string | null;
}

/** One row: what one payer's LOB category says of the line. */
export interface CheckResult {
  payer_id: string | null;
  lob: string | null;
  verdict: RowVerdict;
  policies: CheckedPolicy[];
  /** An edit's row: the edit or list behind it and its release (NCCI PTP practitioner v322r0). */
  rule?: string;
}

/** What a policy says of the procedure, before the diagnoses are looked at. */
type ProcedureStance = "DOES_NOT_COVER" | "COVERS" | "REFERENCES";

/** A policy's ICD-10-CM lists, by dotless upper-case code: the categories it is listed in. */
export interface DiagnosisIndex {
  covers: Map<string, Array<string | null>>;
  excludes: Map<string, Array<string | null>>;
  /** Whether the policy lists any covered ICD-10-CM code (else: no diagnosis limits). */
  hasCovered: boolean;
}

/** One policy in scope of a (procedure, state, LOB, payer, date) answer. */
export interface ScopedPolicy {
  policy_id: string;
  stance: ProcedureStance;
  diagnoses: DiagnosisIndex;
  /** The payer x LOB rows it belongs to, as `payer\u0000lob`. */
  rows: string[];
}

/** An answer prepared once per combination; lines are then judged against it cheaply. */
export interface PreparedAnswer {
  policies: ScopedPolicy[];
}

/** Indexes of policies by id, shared across combinations (a version's codes never change). */
export type DiagnosisCache = Map<string, DiagnosisIndex>;

/** Rule Time: a period [from, to) is in effect on day d when from <= d and (to null or d < to). */
function inEffect(policy: Pick<Policy, "effective_from_date" | "effective_to_date">, day: string) {
  return (
    policy.effective_from_date <= day &&
    (policy.effective_to_date === null || day < policy.effective_to_date)
  );
}

/** The strongest thing a policy's groups say of the procedure, or undefined (not listed). */
function findStance(
  groups: readonly CodeGroup[],
  procedure: ClaimLine["procedure"],
): ProcedureStance | undefined {
  const key = normaliseCode(procedure.code_system, procedure.code);
  let stance: ProcedureStance | undefined;
  for (const g of groups) {
    if (g.code_system !== procedure.code_system) continue;
    if (stance === g.relationship || stance === "DOES_NOT_COVER") continue;
    if (stance === "COVERS" && g.relationship === "REFERENCES") continue;
    if (!g.codes.some((c) => normaliseCode(g.code_system, c) === key)) continue;
    // A relationship outside the enum (a newer API) says nothing this check can read.
    if (g.relationship === "DOES_NOT_COVER" || g.relationship === "COVERS") stance = g.relationship;
    else if (g.relationship === "REFERENCES") stance ??= "REFERENCES";
  }
  return stance;
}

/** The ICD-10-CM lists of a policy, indexed by normalised code. */
export function indexDiagnoses(groups: readonly CodeGroup[]): DiagnosisIndex {
  const index: DiagnosisIndex = { covers: new Map(), excludes: new Map(), hasCovered: false };
  for (const g of groups) {
    if (g.code_system !== "ICD10CM") continue;
    const target =
      g.relationship === "COVERS"
        ? index.covers
        : g.relationship === "DOES_NOT_COVER"
          ? index.excludes
          : undefined;
    if (!target) continue;
    if (g.relationship === "COVERS" && g.codes.length) index.hasCovered = true;
    for (const c of g.codes) {
      const key = normaliseCode("ICD10CM", c);
      const categories = target.get(key);
      if (!categories) target.set(key, [g.category]);
      else if (!categories.includes(g.category)) categories.push(g.category);
    }
  }
  return index;
}

const lobRank = (lob: string) => LOB_CATEGORIES.indexOf(lob as LobCategory);
const rowKey = (payer: string, lob: string) => `${payer}\u0000${lob}`;

/**
 * The payer x LOB rows of a policy that the line's scope reaches: applicability items in one of
 * the states (or nationwide), of the payer and LOB asked when given. The filter has already kept
 * the policies with such a link; this keeps, of each, only the rows the line is about.
 */
function scopeRows(policy: Policy, line: Omit<ClaimLine, "diagnoses">): string[] {
  const rows = new Set<string>();
  const states = line.states?.length ? new Set(line.states) : undefined;
  const payer = line.payer?.toUpperCase();
  for (const item of policy.applicability ?? []) {
    if (states && item.state !== null && item.state !== undefined && !states.has(item.state))
      continue;
    for (const payerId of item.payer_ids) {
      if (payer !== undefined && payerId.toUpperCase() !== payer) continue;
      for (const lob of item.lobs)
        if (line.lob === undefined || lob === line.lob) rows.add(rowKey(payerId, lob));
    }
  }
  return [...rows];
}

/**
 * The policies of a filter answer that are in scope of a line's combination (in effect on the
 * date, listing the procedure, with a row the scope reaches), each with what it says of the
 * procedure and its diagnosis lists. `cache` shares the lists across combinations.
 */
export function prepareAnswer(
  items: readonly Policy[],
  line: Omit<ClaimLine, "diagnoses">,
  cache: DiagnosisCache = new Map(),
): PreparedAnswer {
  const policies: ScopedPolicy[] = [];
  const seen = new Set<string>();
  for (const policy of items) {
    if (seen.has(policy.policy_id) || !inEffect(policy, line.date)) continue;
    const groups = policy.code_groups ?? [];
    const stance = findStance(groups, line.procedure);
    if (!stance) continue;
    const rows = scopeRows(policy, line);
    if (rows.length === 0) continue;
    seen.add(policy.policy_id);
    let diagnoses = cache.get(policy.policy_id);
    if (!diagnoses) cache.set(policy.policy_id, (diagnoses = indexDiagnoses(groups)));
    policies.push({ policy_id: policy.policy_id, stance, diagnoses, rows });
  }
  policies.sort((a, b) => compareCodePoints(a.policy_id, b.policy_id));
  return { policies };
}

/** Distinct non-null categories of the line's diagnoses in one list, joined, or null. */
function categoriesOf(list: Map<string, Array<string | null>>, keys: readonly string[]) {
  const found: string[] = [];
  for (const k of keys)
    for (const c of list.get(k) ?? []) if (c !== null && !found.includes(c)) found.push(c);
  return found.length ? found.join("; ") : null;
}

/** One policy's verdict on the line (the table of cli.md, top to bottom). */
export function judgePolicy(
  policy: Pick<ScopedPolicy, "stance" | "diagnoses">,
  diagnosisKeys: readonly string[],
): { verdict: PolicyVerdict; category: string | null } {
  if (policy.stance === "DOES_NOT_COVER")
    return { verdict: "procedure not covered", category: null };
  if (policy.stance === "REFERENCES") return { verdict: "mentioned only", category: null };
  const { covers, excludes, hasCovered } = policy.diagnoses;
  const excluded = diagnosisKeys.filter((k) => excludes.has(k));
  if (excluded.length)
    return { verdict: "diagnosis not covered", category: categoriesOf(excludes, excluded) };
  const covered = diagnosisKeys.filter((k) => covers.has(k));
  if (covered.length) return { verdict: "supported", category: categoriesOf(covers, covered) };
  if (hasCovered) return { verdict: "diagnosis not listed", category: null };
  return { verdict: "no diagnosis limits", category: null };
}

/** The first verdict in precedence order among a row's policies. */
function firstVerdict(policies: readonly CheckedPolicy[]): PolicyVerdict {
  let best = POLICY_VERDICTS.length - 1;
  for (const p of policies) best = Math.min(best, POLICY_VERDICTS.indexOf(p.verdict));
  return POLICY_VERDICTS[best]!;
}

/**
 * The rows of one line against its prepared answer: one per payer x LOB with the policies
 * behind it (by id), or one `not addressed` row when no policy in scope lists the procedure.
 */
export function judgeLine(
  answer: PreparedAnswer,
  line: Pick<ClaimLine, "diagnoses" | "payer" | "lob">,
): CheckResult[] {
  const keys = [...new Set(line.diagnoses.map((d) => normaliseCode("ICD10CM", d)))];
  const byRow = new Map<string, CheckedPolicy[]>();
  for (const policy of answer.policies) {
    const checked = { policy_id: policy.policy_id, ...judgePolicy(policy, keys) };
    for (const row of policy.rows) {
      const list = byRow.get(row);
      if (list) list.push(checked);
      else byRow.set(row, [checked]);
    }
  }
  if (byRow.size === 0)
    return [
      {
        payer_id: line.payer ?? null,
        lob: line.lob ?? null,
        verdict: "not addressed",
        policies: [],
      },
    ];
  return [...byRow]
    .map(([row, policies]) => {
      const [payer_id, lob] = row.split("\u0000") as [string, string];
      return { payer_id, lob, verdict: firstVerdict(policies), policies };
    })
    .sort((a, b) => compareCodePoints(a.payer_id, b.payer_id) || lobRank(a.lob) - lobRank(b.lob));
}

/** The verdicts of one line straight from the filter's answer (prepareAnswer, then judgeLine). */
export function checkClaim(items: readonly Policy[], line: ClaimLine): CheckResult[] {
  return judgeLine(prepareAnswer(items, line), line);
}
