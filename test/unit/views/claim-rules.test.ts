import { describe, expect, it } from "vitest";
import { parseClaimLine } from "../../../src/requests/claim-line.js";
import type { AnsweredClaim } from "../../../src/views/claim-answers.js";
import { prepareAnswer, type CheckResult } from "../../../src/views/claim-check.js";
import {
  applyClaimRules,
  CLAIM_RULES,
  coverageVerdicts,
  perLine,
  type ClaimRule,
} from "../../../src/views/claim-rules.js";

// The rules stage of `coverage check`: each rule gives every line of a claim its rows, in the
// order of the list; a rule that looks across the claim's lines sees them all.

const answered = (lines: Array<[number, string]>): AnsweredClaim => ({
  lines: lines.map(([line, procedure]) => {
    const parsed = parseClaimLine({ procedure, diagnosis: "M54.50" }, { date: "2026-06-15" });
    return { line, parsed, answer: prepareAnswer([], parsed) };
  }),
});

const row = (verdict: string): CheckResult =>
  ({ payer_id: null, lob: null, verdict, policies: [] }) as unknown as CheckResult;

describe("applyClaimRules", () => {
  it("the coverage verdicts are the rules of a check today", () => {
    expect(CLAIM_RULES).toEqual([coverageVerdicts]);
    const [checked] = applyClaimRules(answered([[7, "97110"]]));
    expect(checked).toEqual({
      line: 7,
      input: expect.objectContaining({ procedure: "CPT:97110", diagnoses: ["ICD10CM:M54.50"] }),
      results: [{ payer_id: null, lob: null, verdict: "not addressed", policies: [] }],
    });
  });

  it("a line's rows are each rule's, in the list's order; a claim rule sees every line", () => {
    const acrossLines: ClaimRule = (claim) =>
      claim.lines.map((_, i) =>
        i === 1 ? [row(`after ${claim.lines[0]!.parsed.input.procedure}`)] : [],
      );
    const echo = perLine((l) => [row(`echo ${l.line}`)]);
    const checked = applyClaimRules(
      answered([
        [2, "97110"],
        [3, "E0601"],
      ]),
      [coverageVerdicts, acrossLines, echo],
    );
    expect(checked.map((c) => [c.line, c.results.map((r) => r.verdict)])).toEqual([
      [2, ["not addressed", "echo 2"]],
      [3, ["not addressed", "after CPT:97110", "echo 3"]],
    ]);
  });
});
