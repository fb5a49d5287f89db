// The fourth stage of `coverage check`: the rules, pure functions over an answered claim. Each
// rule gives rows for each line of the claim; a line's rows are the rules' rows in the order of
// CLAIM_RULES. The coverage verdicts are the first rule; edits (NCCI, MUE, prior authorization)
// are added as rules of the same kind, beside them.
import type { ClaimInput } from "../requests/claim-line.js";
import type { SkippedLine } from "../requests/claim-input.js";
import type { AnsweredClaim } from "./claim-answers.js";
import { judgeLine, type CheckResult } from "./claim-check.js";

/** One checked line, as `--json` prints it in `lines` (and ndjson one a line). */
export interface CheckedClaim {
  line: number;
  input: ClaimInput;
  results: CheckResult[];
}

/** A rule: for each line of the claim (same order as `claim.lines`), its rows. */
export type ClaimRule = (claim: AnsweredClaim) => CheckResult[][];

/** A rule that looks at one line at a time. */
export function perLine(rule: (line: AnsweredClaim["lines"][number]) => CheckResult[]): ClaimRule {
  return (claim) => claim.lines.map(rule);
}

/** The coverage verdicts (cli.md, "Claim checks"): one row per payer x LOB, or `not addressed`. */
export const coverageVerdicts: ClaimRule = perLine((l) => judgeLine(l.answer, l.parsed));

/** The rules of a check, in the order their rows appear under a line. */
export const CLAIM_RULES: readonly ClaimRule[] = [coverageVerdicts];

/** A claim's lines checked: each with the rows of every rule. */
export function applyClaimRules(
  claim: AnsweredClaim,
  rules: readonly ClaimRule[] = CLAIM_RULES,
): CheckedClaim[] {
  const rows = rules.map((rule) => rule(claim));
  return claim.lines.map((l, i) => ({
    line: l.line,
    input: l.parsed.input,
    results: rows.flatMap((r) => r[i] ?? []),
  }));
}

/** Every line checked, in input order; each skipped line handed to `skip` where it comes. */
export async function* checkClaims(
  answered: AsyncIterable<AnsweredClaim | SkippedLine>,
  skip: (line: SkippedLine) => void,
  rules: readonly ClaimRule[] = CLAIM_RULES,
): AsyncGenerator<CheckedClaim> {
  for await (const claim of answered)
    if ("problem" in claim) skip(claim);
    else yield* applyClaimRules(claim, rules);
}
