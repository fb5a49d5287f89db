import { describe, expect, it } from "vitest";
import type { CodeSystem } from "../../../src/contract/index.js";
import { UsageError } from "../../../src/errors.js";
import {
  checkCodeFormats,
  guessCodeSystem,
  hasCodeFormat,
} from "../../../src/requests/code-formats.js";
import { parseDateFlag, parseStates } from "../../../src/requests/parse-flags.js";

describe("CODE_FORMATS: each system's shape", () => {
  it.each<[CodeSystem, string, boolean]>([
    ["CPT", "97110", true],
    ["CPT", " 97110 ", true],
    ["CPT", "3008F", true],
    ["CPT", "0001t", true],
    ["CPT", "0001U", true],
    ["CPT", "9711", false],
    ["CPT", "971100", false],
    ["CPT", "3008X", false],
    ["CPT", "E0601", false],
    ["HCPCS", "E0601", true],
    ["HCPCS", "e0601", true],
    ["HCPCS", "97110", true],
    ["HCPCS", "0001U", true],
    ["HCPCS", "9711", false],
    ["HCPCS", "EE601", false],
    ["ICD10CM", "M25.561", true],
    ["ICD10CM", "m25561", true],
    ["ICD10CM", "E11.9", true],
    ["ICD10CM", "G47", true],
    ["ICD10CM", "S72.001A", true],
    ["ICD10CM", "M25.56123", false],
    ["ICD10CM", "25.561", false],
    ["ICD10CM", "MM5.561", false],
    ["CPT_MODIFIER", "59", true],
    ["CPT_MODIFIER", "1P", true],
    ["CPT_MODIFIER", "591", false],
    ["HCPCS_MODIFIER", "KX", true],
    ["HCPCS_MODIFIER", "kx", true],
    ["HCPCS_MODIFIER", "K", false],
  ])("%s %j -> %s", (system, code, ok) => {
    expect(hasCodeFormat(system, code)).toBe(ok);
  });

  it.each([
    ["E0601", "HCPCS"],
    ["97110", "CPT"],
    ["M25.561", "ICD10CM"],
    ["59", "CPT_MODIFIER"],
    ["0601E", undefined],
  ])("guesses %s as %s", (code, system) => {
    expect(guessCodeSystem(code)).toBe(system);
  });

  it.each<[CodeSystem, string[], RegExp, RegExp]>([
    ["CPT", ["E0601"], /E0601 is a HCPCS Level II code: did you mean HCPCS:E0601\?/, /HCPCS:E0601/],
    ["CPT", ["97110 97112"], /a code cannot hold a space/, /--code CPT:97110,97112$/],
    ["CPT", ["97110", "1"], /'1' is not a CPT code/, /5 digits/],
  ])("refuses %s %j", (system, codes, message, suggestion) => {
    try {
      checkCodeFormats("--code", system, codes);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(2);
      expect((err as UsageError).message).toMatch(message);
      expect((err as UsageError).suggestion).toMatch(suggestion);
    }
  });
});

describe("parseStates: full names suggest the code", () => {
  it.each([
    ["California", "CA"],
    ["new york", "NY"],
    ["NORTH_CAROLINA", "NC"],
    ["District of Columbia", "DC"],
    ["Puerto Rico", "PR"],
  ])("%s -> %s", (name, code) => {
    expect(() => parseStates([name])).toThrow(`did you mean --state ${code}?`);
  });

  it.each([["ca"], ["IN"], ["or"], ["cnmi"], ["ZZ"]])("%s is left for the schema", (value) => {
    expect(parseStates([value])).toEqual([value.toUpperCase()]);
  });
});

describe("parseDateFlag", () => {
  it.each([
    ["2026-02-28", "2026-02-28"],
    [" 2024-02-29 ", "2024-02-29"],
    [undefined, undefined],
  ])("%j -> %j", (raw, out) => {
    expect(parseDateFlag("--effective-on", raw)).toBe(out);
  });

  it.each([
    ["2026-02-30", "--effective-on '2026-02-30' is not a real date"],
    ["2023-02-29", "--effective-on '2023-02-29' is not a real date"],
    ["2026-13-01", "--effective-on '2026-13-01' is not a real date"],
    ["2026-2-3", "'2026-2-3' is not a date in the form YYYY-MM-DD"],
    ["today", "'today' is not a date in the form YYYY-MM-DD"],
  ])("refuses %j", (raw, message) => {
    expect(() => parseDateFlag("--effective-on", raw)).toThrow(message);
  });
});
