import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Applicability, CodeGroup, CodeReference } from "../../../src/contract/index.js";
import { makeCodeKey } from "../../../src/engine/codes.js";
import {
  describeApplicability,
  describeCodeGroup,
  listLobs,
  listRelationships,
  listPayers,
  listStates,
  summarizeVerdict,
} from "../../../src/views/coverage-summary.js";

const group = (
  code_system: CodeGroup["code_system"],
  relationship: CodeGroup["relationship"],
  codes: string[],
): CodeGroup => ({ code_system, relationship, category: null, codes });

describe("summarizeVerdict", () => {
  const refs: CodeReference[] = [{ code_system: "ICD10CM", codes: ["e11.9"] }];
  it.each<[string, CodeGroup[], CodeReference[], string]>([
    ["one COVERS group", [group("ICD10CM", "COVERS", ["E119"])], refs, "covers"],
    ["dotted codes match", [group("ICD10CM", "DOES_NOT_COVER", ["E11.9"])], refs, "does not cover"],
    ["REFERENCES is mentions", [group("ICD10CM", "REFERENCES", ["E11.9"])], refs, "mentions"],
    [
      "two relationships",
      [group("ICD10CM", "COVERS", ["E11.9"]), group("ICD10CM", "REFERENCES", ["E119"])],
      refs,
      "mixed",
    ],
    ["another system", [group("HCPCS", "COVERS", ["E119"])], refs, "none"],
    ["no groups", [], refs, "none"],
  ])("%s", (_name, groups, asked, verdict) => {
    expect(summarizeVerdict(groups, asked)).toBe(verdict);
  });
});

describe("listRelationships: every group with an asked code (rule Filter 5's normalisation)", () => {
  const chars = fc.constantFrom(..."eE19. \t\u00a0é-".split(""));
  const code = fc.array(chars, { maxLength: 5 }).map((c) => c.join(""));
  const system = fc.constantFrom<CodeGroup["code_system"]>("ICD10CM", "CPT");
  const relationship = fc.constantFrom<CodeGroup["relationship"]>(
    "COVERS",
    "DOES_NOT_COVER",
    "REFERENCES",
  );
  it("as keys made for every code would find them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(system, relationship, fc.array(code, { maxLength: 6 })), {
          maxLength: 5,
        }),
        fc.array(
          fc.record({ code_system: system, codes: fc.array(code, { minLength: 1, maxLength: 2 }) }),
          {
            minLength: 1,
            maxLength: 2,
          },
        ),
        (groupList, refs) => {
          const groups = groupList.map(([s, r, codes]) => group(s, r, codes));
          const asked = new Set(
            refs.flatMap((r) => r.codes.map((c) => makeCodeKey(r.code_system, c))),
          );
          const want = new Set(
            groups
              .filter((g) => g.codes.some((c) => asked.has(makeCodeKey(g.code_system, c))))
              .map((g) => g.relationship),
          );
          expect(new Set(listRelationships(groups, refs))).toEqual(want);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("flat applicability and one-line descriptions", () => {
  const items: Applicability[] = [
    { payer_ids: ["B"], payer_names: ["Beta"], lobs: ["medicaid"], state: "TX" },
    { payer_ids: ["A", "B"], payer_names: ["Alpha", "Beta"], lobs: ["commercial"], state: null },
  ];
  it("payers in the order met, once each", () => {
    expect(listPayers(items)).toEqual(["Beta", "Alpha"]);
    expect(listPayers(items, "payer_ids")).toEqual(["B", "A"]);
  });
  it("LOB categories in the spec's order; states with nationwide", () => {
    expect(listLobs(items)).toEqual(["commercial", "medicaid"]);
    expect(listStates(items)).toEqual(["TX", "nationwide"]);
  });
  it("describeApplicability and describeCodeGroup", () => {
    expect(describeApplicability(items[1]!)).toBe("Alpha, Beta · commercial · nationwide");
    expect(describeCodeGroup(group("CPT", "DOES_NOT_COVER", ["97014", "97016"]))).toBe(
      "does not cover CPT 97014 97016",
    );
  });
});
