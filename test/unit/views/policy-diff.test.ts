import { describe, expect, it } from "vitest";
import type { CodeGroup, DetailApplicability, PolicyDetail } from "../../../src/contract/index.js";
import {
  classifyUpdate,
  diffCodes,
  diffCriteria,
  diffPolicies,
  diffScopes,
} from "../../../src/views/policy-diff.js";
import { describeStep, summarizeStep } from "../../../src/views/versions.js";

const g = (
  relationship: CodeGroup["relationship"],
  codes: string[],
  code_system: CodeGroup["code_system"] = "CPT",
  category: string | null = null,
): CodeGroup => ({ code_system, relationship, category, codes });

const scope = (payer: string, lobs: string[], state?: string): DetailApplicability =>
  ({ payer_ids: [payer], payer_names: [`${payer} Inc`], lobs, state }) as DetailApplicability;

const detail = (over: Partial<PolicyDetail> = {}): PolicyDetail =>
  ({
    policy_id: "k/2024-01-01",
    policy_number: "K1",
    title: "Therapy",
    effective_from_date: "2024-01-01",
    effective_to_date: null,
    file_url: "https://example.test/k.pdf",
    file_type: "pdf",
    listing_url: "https://example.test/",
    summary: "s",
    applicability: [scope("P", ["commercial"])],
    code_groups: [g("COVERS", ["97110"])],
    criteria_text: "## Criteria\n\n- one\n",
    ...over,
  }) as PolicyDetail;

describe("diffCodes", () => {
  it.each<[string, CodeGroup[], CodeGroup[], unknown]>([
    [
      "same",
      [g("COVERS", ["97110"])],
      [g("COVERS", ["97110"])],
      { added: [], removed: [], changed: [] },
    ],
    [
      "added and removed",
      [g("COVERS", ["97110"])],
      [g("COVERS", ["97112"])],
      {
        added: [
          { code_system: "CPT", code: "97112", relationships: ["COVERS"], categories: [null] },
        ],
        removed: [
          { code_system: "CPT", code: "97110", relationships: ["COVERS"], categories: [null] },
        ],
        changed: [],
      },
    ],
    [
      "relationship changed",
      [g("COVERS", ["97110"])],
      [g("DOES_NOT_COVER", ["97110"])],
      {
        added: [],
        removed: [],
        changed: [
          {
            code_system: "CPT",
            code: "97110",
            old: { relationships: ["COVERS"], categories: [null] },
            new: { relationships: ["DOES_NOT_COVER"], categories: [null] },
          },
        ],
      },
    ],
    [
      "ICD-10-CM dotted and dotless are the same code",
      [g("COVERS", ["E11.9"], "ICD10CM")],
      [g("COVERS", ["e119"], "ICD10CM")],
      { added: [], removed: [], changed: [] },
    ],
    [
      "same code in another system is another code",
      [g("COVERS", ["97110"], "CPT")],
      [g("COVERS", ["97110"], "CPT"), g("COVERS", ["97110"], "HCPCS")],
      {
        added: [
          { code_system: "HCPCS", code: "97110", relationships: ["COVERS"], categories: [null] },
        ],
        removed: [],
        changed: [],
      },
    ],
  ])("%s", (_name, before, after, expected) => {
    expect(diffCodes(before, after)).toEqual(expected);
  });
});

describe("diffScopes", () => {
  it.each<[string, DetailApplicability[], DetailApplicability[], string[], string[]]>([
    ["same", [scope("P", ["commercial"])], [scope("P", ["commercial"])], [], []],
    [
      "a state gained, nationwide lost",
      [scope("P", ["commercial"])],
      [scope("P", ["commercial"], "CA")],
      ["P commercial CA"],
      ["P commercial nationwide"],
    ],
    [
      "a category gained inside one item",
      [scope("P", ["medicaid"], "TX")],
      [scope("P", ["medicaid", "commercial"], "TX")],
      ["P commercial TX"],
      [],
    ],
  ])("%s", (_name, before, after, gained, lost) => {
    const d = diffScopes(before, after);
    const words = (list: typeof d.gained) =>
      list.map((s) => `${s.payer_id} ${s.lob} ${s.state ?? "nationwide"}`);
    expect(words(d.gained)).toEqual(gained);
    expect(words(d.lost)).toEqual(lost);
  });
});

describe("diffCriteria", () => {
  it("the same text: no patch", () => {
    expect(diffCriteria("a", "b", "x\n", "x\n")).toEqual({ changed: false, patch: null });
  });
  it("a unified diff, starting at the --- line", () => {
    const d = diffCriteria("old/2024-01-01", "old/2025-01-01", "a\nb\nc\n", "a\nB\nc\n");
    expect(d.changed).toBe(true);
    expect(d.patch).toBe(
      "--- old/2024-01-01\n+++ old/2025-01-01\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    );
  });
  it("null criteria read as empty", () => {
    expect(diffCriteria("a", "b", null, "x").patch).toContain("+x");
  });
});

describe("classification (updates --changes)", () => {
  it.each<[string, Partial<PolicyDetail> | undefined, Partial<PolicyDetail>, string[]]>([
    ["no predecessor", undefined, {}, ["new"]],
    [
      "dates only",
      {},
      { policy_id: "k/2025-01-01", effective_from_date: "2025-01-01" },
      ["metadata only"],
    ],
    ["title", {}, { title: "Therapy services" }, ["metadata only"]],
    ["codes", {}, { code_groups: [g("COVERS", ["97110", "97112"])] }, ["codes changed"]],
    ["criteria", {}, { criteria_text: "## Criteria\n\n- two\n" }, ["criteria changed"]],
    ["applicability", {}, { applicability: [scope("P", ["medicaid"])] }, ["applicability changed"]],
    [
      "all three, in a fixed order",
      {},
      {
        applicability: [],
        criteria_text: null,
        code_groups: [],
      },
      ["codes changed", "criteria changed", "applicability changed"],
    ],
  ])("%s", (_name, before, after, kinds) => {
    expect(classifyUpdate(before && detail(before), detail(after))).toEqual(kinds);
  });
});

describe("diffPolicies and the versions step", () => {
  const d = diffPolicies(
    detail(),
    detail({
      policy_id: "k/2025-01-01",
      effective_from_date: "2025-01-01",
      title: "Therapy services",
      code_groups: [g("COVERS", ["97112"])],
    }),
  );
  it("lists changed fields in a fixed order", () => {
    expect(d.fields.map((f) => f.field)).toEqual(["title", "effective_from_date"]);
  });
  it.each([
    [summarizeStep(d), "+1 code, -1 code, title"],
    [null, "first version"],
    [
      summarizeStep(diffPolicies(detail(), detail({ effective_from_date: "2025-01-01" }))),
      "dates only",
    ],
  ])("describeStep: %#", (step, text) => {
    expect(describeStep(step)).toBe(text);
  });
});
