import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import {
  integerish,
  parseCodeFlag,
  parseEnumFlag,
  parseLobs,
  parseRelationships,
  parseStates,
  requireList,
  splitList,
} from "../../../src/requests/parse-flags.js";

describe("parseCodeFlag (--code SYSTEM:CODE[,CODE...])", () => {
  it.each([
    ["CPT:97110", "CPT", ["97110"]],
    ["cpt:97110, 97112 ,", "CPT", ["97110", "97112"]],
    ["CPT_MODIFIER:59", "CPT_MODIFIER", ["59"]],
    ["cpt-modifier:59", "CPT_MODIFIER", ["59"]],
    ["HCPCS:E0601", "HCPCS", ["E0601"]],
    ["hcpcs_modifier:KX", "HCPCS_MODIFIER", ["KX"]],
    ["Hcpcs-Modifier:kx", "HCPCS_MODIFIER", ["kx"]],
    ["ICD10CM:G47.33", "ICD10CM", ["G47.33"]],
    ["icd10:g4733", "ICD10CM", ["g4733"]],
    ["ICD-10-CM:E11.9", "ICD10CM", ["E11.9"]],
    [" icd10cm :E11.9", "ICD10CM", ["E11.9"]],
  ])("%j -> %s %j", (raw, system, codes) => {
    expect(parseCodeFlag(raw)).toEqual({ code_system: system, codes });
  });

  it.each([
    ["97110", /no code system/],
    ["ICD10PCS:0B110F4", /ICD-10-PCS/],
    ["ICD-10-PCS:0B110F4", /ICD-10-PCS/],
    ["SNOMED:1234", /unknown code system 'SNOMED'/],
    ["CPT:", /names no code/],
    ["CPT: , ", /names no code/],
  ])("refuses %j", (raw, message) => {
    expect(() => parseCodeFlag(raw)).toThrow(UsageError);
    expect(() => parseCodeFlag(raw)).toThrow(message);
  });

  it("names the accepted systems when SYSTEM: is missing", () => {
    try {
      parseCodeFlag("E11.9");
      expect.unreachable();
    } catch (err) {
      expect((err as UsageError).suggestion).toMatch(
        /CPT, CPT_MODIFIER, HCPCS, HCPCS_MODIFIER, ICD10CM/,
      );
      expect((err as UsageError).exitCode).toBe(2);
    }
  });
});

describe("parseRelationships", () => {
  it.each([
    [["covers"], ["COVERS"]],
    [["does_not_cover,Covers"], ["DOES_NOT_COVER", "COVERS"]],
    [
      ["Does-Not-Cover", "references"],
      ["DOES_NOT_COVER", "REFERENCES"],
    ],
    [[" REFERENCES "], ["REFERENCES"]],
  ])("%j -> %j", (values, expected) => {
    expect(parseRelationships(values)).toEqual(expected);
  });
  it("refuses an unknown relationship", () => {
    expect(() => parseRelationships(["covers,excludes"])).toThrow(
      /'excludes' is not a relationship/,
    );
  });
});

describe("list and scalar flag helpers", () => {
  it.each([
    [undefined, undefined],
    [["a"], ["a"]],
    [
      ["a,b", " c "],
      ["a", "b", "c"],
    ],
    [[",,"], []],
  ])("splitList %j -> %j", (values, expected) => {
    expect(splitList(values)).toEqual(expected);
  });

  it("requireList refuses a flag given only blanks", () => {
    expect(requireList(undefined, "--payer")).toBeUndefined();
    expect(requireList(["A, B"], "--payer")).toEqual(["A", "B"]);
    expect(() => requireList([" , "], "--payer")).toThrow(/--payer needs at least one value/);
  });

  it.each([
    [
      ["Medicare-Advantage", "COMMERCIAL"],
      ["medicare_advantage", "commercial"],
    ],
    [["individual_aca,medicaid"], ["individual_aca", "medicaid"]],
  ])("parseLobs %j -> %j", (values, expected) => {
    expect(parseLobs(values)).toEqual(expected);
  });

  it.each([
    [
      ["ca", "Ny,tx"],
      ["CA", "NY", "TX"],
    ],
    [["cnmi"], ["CNMI"]],
  ])("parseStates %j -> %j", (values, expected) => {
    expect(parseStates(values)).toEqual(expected);
  });

  it.each([
    [undefined, undefined],
    ["5", 5],
    [" 10 ", 10],
    ["-1", -1],
    ["+3", 3],
    ["1.5", "1.5"],
    ["ten", "ten"],
    ["", ""],
  ])("integerish %j -> %j", (raw, expected) => {
    expect(integerish(raw)).toEqual(expected);
  });

  it.each([
    [undefined, undefined],
    ["ALL", "all"],
    [" Title-Desc ", "title_desc"],
    ["relevance", "relevance"],
  ])("parseEnumFlag %j -> %j", (raw, expected) => {
    expect(parseEnumFlag(raw)).toEqual(expected);
  });
});
