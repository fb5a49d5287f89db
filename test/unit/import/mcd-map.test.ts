import { describe, expect, it } from "vitest";
import {
  classifyModifier,
  classifyProcedureCode,
  cutAtWord,
  dottedIcd10,
  firstDate,
  isProposed,
  lobsOfContractor,
  toCategory,
  toDate,
  UnknownContractorKind,
} from "../../../src/import/mcd/map.js";

describe("MCD mapping rules", () => {
  it.each([
    ["2024-06-01 00:00:00", "2024-06-01"],
    ["2024-06-01 10:11:12.347", "2024-06-01"],
    ["2026-02-12 09:31:45.123456789", "2026-02-12"],
    ["2026-02-12 09:31:45.1234567890", undefined],
    ["2024-06-01", "2024-06-01"],
    ["", null],
    ["   ", null],
    ["2024-13-01 00:00:00", undefined],
    ["2023-02-29 00:00:00", undefined],
    ["06/01/2024", undefined],
  ])("toDate(%j) is %j", (input, want) => expect(toDate(input)).toBe(want));

  it.each([
    [["", "2020-01-01 00:00:00"], "2020-01-01"],
    [["2021-01-01 00:00:00", "2020-01-01 00:00:00"], "2021-01-01"],
    [["", ""], null],
    [["bad", "2020-01-01"], undefined],
  ])("firstDate(%j) is %j", (input, want) => expect(firstDate(input)).toBe(want));

  it.each([
    ["97110", "CPT"],
    ["0042T", "CPT"],
    ["1234F", "CPT"],
    ["0001U", "CPT"],
    ["0001u", "CPT"],
    ["E0601", "HCPCS"],
    ["L1833", "HCPCS"],
    ["1234A", "HCPCS"],
    ["9711", "HCPCS"],
  ])("procedure code %s is %s", (code, want) => expect(classifyProcedureCode(code)).toBe(want));

  it.each([
    ["59", "CPT_MODIFIER"],
    ["KX", "HCPCS_MODIFIER"],
    ["GA", "HCPCS_MODIFIER"],
    ["5", "HCPCS_MODIFIER"],
  ])("modifier %s is %s", (code, want) => expect(classifyModifier(code)).toBe(want));

  it.each([
    ["A", "L39001", "DL", false],
    ["R", "L39001", "DL", false],
    ["P", "L39001", "DL", true],
    ["A", "DL39005", "DL", true],
    ["A", "DA59003", "DA", true],
    [" p ", "", "DA", true],
  ] as const)("isProposed(%j, %j, %s) is %s", (status, id, prefix, want) =>
    expect(isProposed(status, id, prefix)).toBe(want),
  );

  // mcd-import.md, "What the real export showed": the subtype decides when there is one.
  it.each([
    ["A and B MAC", "MAC A", ["medicare_part_a"]],
    ["A and B MAC", "MAC B", ["medicare_part_b"]],
    ["A and B and HHH MAC", "HHH MAC", ["medicare_part_a"]],
    ["DME MAC", "DME MAC", ["medicare_part_b"]],
    ["A and B MAC", " mac  a ", ["medicare_part_a"]],
    // The names of the page's first version (synthetic exports use them).
    ["A and B MAC", "MAC - Part A", ["medicare_part_a"]],
    ["A and B MAC", "MAC - Part B", ["medicare_part_b"]],
    ["A and B MAC", "", ["medicare_part_a", "medicare_part_b"]],
    ["A and B and HHH MAC", "", ["medicare_part_a", "medicare_part_b"]],
    ["MAC - Part A", "", ["medicare_part_a"]],
    ["MAC - Part B", "", ["medicare_part_b"]],
    ["HHH MAC", "", ["medicare_part_a"]],
    ["DME MAC", "", ["medicare_part_b"]],
    ["DMERC", "", ["medicare_part_b"]],
    ["Carrier", "", ["medicare_part_b"]],
    ["Fiscal Intermediary", "", ["medicare_part_a"]],
    ["RHHI", "", ["medicare_part_a"]],
  ])("contractor type %j / subtype %j gives %j", (type, subtype, want) =>
    expect(lobsOfContractor(type, subtype)).toEqual(want),
  );

  it.each([
    ["A and B MAC", "MAC C", "subtype", "MAC C"],
    ["A and B MAC", "Part A", "subtype", "Part A"],
    ["Something else", "", "type", "Something else"],
    ["", "", "type", ""],
  ])(
    "contractor type %j / subtype %j is an error naming it, never a guess",
    (type, subtype, kind, name) => {
      let error: unknown;
      try {
        lobsOfContractor(type, subtype);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(UnknownContractorKind);
      expect(error).toMatchObject({ kind, description: name });
    },
  );

  it("cutAtWord keeps short text, cuts long text at a word with …, null when empty", () => {
    expect(cutAtWord("short text", 300)).toBe("short text");
    expect(cutAtWord("", 300)).toBeNull();
    const long = "word ".repeat(100).trim();
    const cut = cutAtWord(long, 300)!;
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut.endsWith("word…")).toBe(true);
    expect(cutAtWord("x".repeat(400), 300)).toBe(`${"x".repeat(299)}…`);
  });

  it("toCategory cuts at 120 characters; null when empty or N/A", () => {
    expect(toCategory("")).toBeNull();
    expect(toCategory("N/A")).toBeNull();
    expect(toCategory("n/a.")).toBeNull();
    expect(toCategory("N/A for modifiers GA, GZ")).toBe("N/A for modifiers GA, GZ");
    expect(toCategory("a".repeat(130))).toBe("a".repeat(120));
    expect(toCategory("Supplies")).toBe("Supplies");
  });

  it.each([
    ["E119", "E11.9"],
    ["e11.9", "E11.9"],
    ["I10", "I10"],
    ["M1711", "M17.11"],
  ])("dottedIcd10(%s) is %s", (code, want) => expect(dottedIcd10(code)).toBe(want));
});
