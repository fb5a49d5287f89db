import { describe, expect, it } from "vitest";
import type { Applicability, CodeGroup, Policy } from "../../../src/contract/index.js";
import {
  checkClaim,
  POLICY_VERDICTS,
  type ClaimLine,
  type PolicyVerdict,
} from "../../../src/views/claim-check.js";

// The verdict rules of cli.md ("Claim checks"), rule by rule, over filter answers built by hand.

type Group = [CodeGroup["code_system"], CodeGroup["relationship"], string | null, ...string[]];

const scope = (payers: string[], lobs: string[], state: string | null): Applicability =>
  ({ payer_ids: payers, payer_names: payers, lobs, state }) as Applicability;

const policy = (
  id: string,
  groups: Group[],
  applicability: Applicability[] = [scope(["CMS"], ["medicare_part_b"], null)],
  from = "2024-01-01",
  to: string | null = null,
): Policy =>
  ({
    policy_id: id,
    policy_number: id,
    title: id,
    effective_from_date: from,
    effective_to_date: to,
    file_url: "",
    file_type: "pdf",
    listing_url: "",
    summary: null,
    applicability,
    code_groups: groups.map(([code_system, relationship, category, ...codes]) => ({
      code_system,
      relationship,
      category,
      codes,
    })),
  }) as Policy;

const line = (over: Partial<ClaimLine> = {}): ClaimLine => ({
  procedure: { code_system: "CPT", code: "97110" },
  diagnoses: ["M54.50"],
  date: "2026-06-15",
  ...over,
});

const COVERS_PROC: Group = ["CPT", "COVERS", null, "97110"];

describe("a policy's verdict", () => {
  const cases: Array<{
    rule: string;
    groups: Group[];
    diagnoses?: string[];
    verdict: PolicyVerdict;
    category?: string | null;
  }> = [
    {
      rule: "procedure not covered: the procedure is listed DOES_NOT_COVER",
      groups: [
        ["CPT", "DOES_NOT_COVER", null, "97110"],
        ["ICD10CM", "COVERS", "G1", "M54.50"],
      ],
      verdict: "procedure not covered",
    },
    {
      rule: "procedure not covered wins over a COVERS listing of the same procedure",
      groups: [COVERS_PROC, ["CPT", "DOES_NOT_COVER", null, "97110"]],
      verdict: "procedure not covered",
    },
    {
      rule: "diagnosis not covered: covers the procedure, a diagnosis of the line DOES_NOT_COVER",
      groups: [
        COVERS_PROC,
        ["ICD10CM", "COVERS", "Group 1", "M54.50"],
        ["ICD10CM", "DOES_NOT_COVER", "Group 2", "M54.50"],
      ],
      verdict: "diagnosis not covered",
      category: "Group 2",
    },
    {
      rule: "diagnosis not covered: any one of several diagnoses is enough",
      groups: [
        COVERS_PROC,
        ["ICD10CM", "COVERS", "Group 1", "M54.50"],
        ["ICD10CM", "DOES_NOT_COVER", "Excl", "Z00.00"],
      ],
      diagnoses: ["M54.50", "Z00.00"],
      verdict: "diagnosis not covered",
      category: "Excl",
    },
    {
      rule: "supported: covers the procedure and lists a diagnosis of the line as covered",
      groups: [COVERS_PROC, ["ICD10CM", "COVERS", "Group 1", "M54.40", "M54.50"]],
      verdict: "supported",
      category: "Group 1",
    },
    {
      rule: "supported: ICD-10-CM compared dotless and in any case (the line's m5450)",
      groups: [COVERS_PROC, ["ICD10CM", "COVERS", "Group 1", "M54.50"]],
      diagnoses: ["m5450"],
      verdict: "supported",
      category: "Group 1",
    },
    {
      rule: "supported: the policy's code dotless, the line's dotted",
      groups: [COVERS_PROC, ["ICD10CM", "COVERS", null, "m5450"]],
      diagnoses: ["M54.50"],
      verdict: "supported",
      category: null,
    },
    {
      rule: "supported: every category the diagnoses are listed in, joined",
      groups: [
        COVERS_PROC,
        ["ICD10CM", "COVERS", "Group 1", "M54.50"],
        ["ICD10CM", "COVERS", "Group 3", "M54.50", "G47.33"],
      ],
      diagnoses: ["M54.50", "G47.33"],
      verdict: "supported",
      category: "Group 1; Group 3",
    },
    {
      rule: "diagnosis not listed: covered ICD-10-CM codes, none the line's",
      groups: [COVERS_PROC, ["ICD10CM", "COVERS", "Group 1", "G47.33"]],
      verdict: "diagnosis not listed",
    },
    {
      rule: "diagnosis not listed: a line without diagnoses against a covered list",
      groups: [COVERS_PROC, ["ICD10CM", "COVERS", "Group 1", "G47.33"]],
      diagnoses: [],
      verdict: "diagnosis not listed",
    },
    {
      rule: "diagnosis not listed: a diagnosis only REFERENCED does not support",
      groups: [
        COVERS_PROC,
        ["ICD10CM", "COVERS", "Group 1", "G47.33"],
        ["ICD10CM", "REFERENCES", null, "M54.50"],
      ],
      verdict: "diagnosis not listed",
    },
    {
      rule: "no diagnosis limits: covers the procedure and lists no ICD-10-CM codes",
      groups: [COVERS_PROC, ["HCPCS", "COVERS", null, "E0601"]],
      verdict: "no diagnosis limits",
    },
    {
      rule: "no diagnosis limits: ICD-10-CM codes only excluded, none the line's",
      groups: [COVERS_PROC, ["ICD10CM", "DOES_NOT_COVER", null, "Z00.00"]],
      verdict: "no diagnosis limits",
    },
    {
      rule: "mentioned only: the procedure listed only as REFERENCES",
      groups: [
        ["CPT", "REFERENCES", null, "97110"],
        ["ICD10CM", "COVERS", "Group 1", "M54.50"],
      ],
      verdict: "mentioned only",
    },
    {
      rule: "a COVERS listing wins over a REFERENCES one",
      groups: [["CPT", "REFERENCES", null, "97110"], COVERS_PROC],
      verdict: "no diagnosis limits",
    },
    {
      rule: "the whole policy is read: diagnoses listed for another procedure count for this one",
      groups: [
        COVERS_PROC,
        ["CPT", "COVERS", "Other", "97112"],
        ["ICD10CM", "COVERS", "For 97112 only", "M54.50"],
      ],
      verdict: "supported",
      category: "For 97112 only",
    },
  ];
  it.each(cases)("$rule", ({ groups, diagnoses, verdict, category }) => {
    const [row] = checkClaim(
      [policy("p/1/2024-01-01", groups)],
      line({ diagnoses: diagnoses ?? ["M54.50"] }),
    );
    expect(row).toEqual({
      payer_id: "CMS",
      lob: "medicare_part_b",
      verdict,
      policies: [{ policy_id: "p/1/2024-01-01", verdict, category: category ?? null }],
    });
  });
});

describe("which policies are in scope", () => {
  const ca = scope(["CMS"], ["medicare_part_b"], "CA");
  const nf = scope(["CMS"], ["medicare_part_b"], "NF");
  const tx = scope(["CMS"], ["medicare_part_b"], "TX");
  const cases: Array<{ rule: string; p: Policy; l: Partial<ClaimLine>; listed: boolean }> = [
    {
      rule: "a policy that does not list the procedure is not in scope",
      p: policy("a/1/2024", [["CPT", "COVERS", null, "97112"]]),
      l: {},
      listed: false,
    },
    {
      rule: "the procedure compares by system (HCPCS 97110 is not CPT 97110)",
      p: policy("a/1/2024", [["HCPCS", "COVERS", null, "97110"]]),
      l: {},
      listed: false,
    },
    {
      rule: "a procedure in lower case matches",
      p: policy("a/1/2024", [["HCPCS", "COVERS", null, "e0601"]]),
      l: { procedure: { code_system: "HCPCS", code: "E0601" } },
      listed: true,
    },
    {
      rule: "a sub-state jurisdiction is in scope of its state (CA brings NF)",
      p: policy("a/1/2024", [COVERS_PROC], [nf]),
      l: { states: ["CA", "NF", "SF"] },
      listed: true,
    },
    {
      rule: "a state-specific scope elsewhere is not",
      p: policy("a/1/2024", [COVERS_PROC], [tx]),
      l: { states: ["CA", "NF", "SF"] },
      listed: false,
    },
    {
      rule: "a nationwide scope is in every state",
      p: policy("a/1/2024", [COVERS_PROC]),
      l: { states: ["TX"] },
      listed: true,
    },
    {
      rule: "no state asked: every scope",
      p: policy("a/1/2024", [COVERS_PROC], [tx]),
      l: {},
      listed: true,
    },
    {
      rule: "the CA scope is not in scope of NF alone",
      p: policy("a/1/2024", [COVERS_PROC], [ca]),
      l: { states: ["NF"] },
      listed: false,
    },
    {
      rule: "another LOB is not in scope",
      p: policy("a/1/2024", [COVERS_PROC]),
      l: { lob: "commercial" },
      listed: false,
    },
    {
      rule: "another payer is not in scope",
      p: policy("a/1/2024", [COVERS_PROC]),
      l: { payer: "AETNA" },
      listed: false,
    },
    {
      rule: "the payer compares in any case",
      p: policy("a/1/2024", [COVERS_PROC]),
      l: { payer: "cms" },
      listed: true,
    },
    {
      rule: "a version on its first day is in effect",
      p: policy("a/1/2026-06-15", [COVERS_PROC], undefined, "2026-06-15"),
      l: {},
      listed: true,
    },
    {
      rule: "a version starting the day after is not",
      p: policy("a/1/2026-06-16", [COVERS_PROC], undefined, "2026-06-16"),
      l: {},
      listed: false,
    },
    {
      rule: "a version's end date is exclusive: not in effect on it",
      p: policy("a/1/2024", [COVERS_PROC], undefined, "2024-01-01", "2026-06-15"),
      l: {},
      listed: false,
    },
    {
      rule: "a version ending the day after is in effect",
      p: policy("a/1/2024", [COVERS_PROC], undefined, "2024-01-01", "2026-06-16"),
      l: {},
      listed: true,
    },
    {
      rule: "a policy without applicability has no row",
      p: policy("a/1/2024", [COVERS_PROC], []),
      l: {},
      listed: false,
    },
  ];
  it.each(cases)("$rule", ({ p, l, listed }) => {
    const rows = checkClaim([p], line(l));
    if (listed)
      expect(rows.map((r) => r.policies.map((x) => x.policy_id))).toEqual([[p.policy_id]]);
    else
      expect(rows).toEqual([
        { payer_id: l.payer ?? null, lob: l.lob ?? null, verdict: "not addressed", policies: [] },
      ]);
  });
});

describe("a row's verdict", () => {
  const groupsFor: Record<PolicyVerdict, Group[]> = {
    "procedure not covered": [["CPT", "DOES_NOT_COVER", null, "97110"]],
    "diagnosis not covered": [COVERS_PROC, ["ICD10CM", "DOES_NOT_COVER", "X", "M54.50"]],
    supported: [COVERS_PROC, ["ICD10CM", "COVERS", "G", "M54.50"]],
    "diagnosis not listed": [COVERS_PROC, ["ICD10CM", "COVERS", "G", "G47.33"]],
    "no diagnosis limits": [COVERS_PROC],
    "mentioned only": [["CPT", "REFERENCES", null, "97110"]],
  };
  // Every pair of verdicts: the row gets the one earlier in the table, whichever policy has it.
  const pairs = POLICY_VERDICTS.flatMap((a, i) =>
    POLICY_VERDICTS.slice(i + 1).map((b) => ({ a, b })),
  );
  it.each(pairs)("$a over $b", ({ a, b }) => {
    const rows = checkClaim(
      [policy("z/1/2024", groupsFor[b]), policy("a/1/2024", groupsFor[a])],
      line(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.verdict).toBe(a);
    expect(rows[0]!.policies.map((p) => [p.policy_id, p.verdict])).toEqual([
      ["a/1/2024", a],
      ["z/1/2024", b],
    ]);
  });

  it("groups by payer and LOB, each row with only its own policies", () => {
    const both = policy("a/1/2024", groupsFor.supported, [
      scope(["CMS", "HUMANA"], ["medicare_part_b", "medicare_advantage"], null),
    ]);
    const humana = policy("h/1/2024", groupsFor["procedure not covered"], [
      scope(["HUMANA"], ["medicare_advantage"], "TX"),
    ]);
    const rows = checkClaim([humana, both], line({ states: ["TX"] }));
    expect(rows.map((r) => [r.payer_id, r.lob, r.verdict, r.policies.length])).toEqual([
      ["CMS", "medicare_part_b", "supported", 1],
      ["CMS", "medicare_advantage", "supported", 1],
      ["HUMANA", "medicare_part_b", "supported", 1],
      ["HUMANA", "medicare_advantage", "procedure not covered", 2],
    ]);
  });

  it("a scope item of another state does not add its LOBs", () => {
    const p = policy("a/1/2024", groupsFor.supported, [
      scope(["CENTENE"], ["medicaid"], "CA"),
      scope(["CIGNA"], ["commercial"], "TX"),
    ]);
    expect(checkClaim([p], line({ states: ["CA", "NF", "SF"] })).map((r) => r.payer_id)).toEqual([
      "CENTENE",
    ]);
  });
});
