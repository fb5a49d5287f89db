import { describe, expect, it } from "vitest";
import { buildCodeViewBody, codeViewFlagFor, parseOneCode } from "../../../src/requests/views.js";
import { buildProbeBody } from "../../../src/views/find-versions.js";
import { buildUpdatesNarrowing } from "../../../src/requests/updates.js";

describe("the requests of the analyst views", () => {
  const ref = { code_system: "CPT" as const, codes: ["97110"] };
  it.each([
    [
      "code alone: the day as the window",
      {},
      {
        policies: {
          code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
          effective_date: { start: "2026-11-21", end: "2026-11-21" },
        },
      },
    ],
    [
      "narrowed, values normalised as search does",
      {
        state: ["ca,ny"],
        lob: ["Medicare-Advantage"],
        payer: ["AETNA"],
        effectiveOn: "2025-01-01",
      },
      {
        policies: {
          code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
          payer_ids: ["AETNA"],
          lobs: ["medicare_advantage"],
          states: ["CA", "NY", "NF", "SF", "DN", "QN", "UN"],
          effective_date: { start: "2026-11-21", end: "2026-11-21" },
        },
      },
    ],
    [
      "--exact-state: the states as typed",
      { state: ["ca,ny"], exactState: true },
      {
        policies: {
          code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
          states: ["CA", "NY"],
          effective_date: { start: "2026-11-21", end: "2026-11-21" },
        },
      },
    ],
  ])("buildCodeViewBody: %s", (_name, flags, policies) => {
    expect(buildCodeViewBody(ref, flags, "2026-11-21")).toEqual({
      ...policies,
      sort: "policy_id_asc",
      limit: 100,
      include_applicability: true,
      include_code_groups: true,
    });
  });

  it.each([
    ["CPT:97110", { code_system: "CPT", codes: ["97110"] }],
    ["icd10:E11.9", { code_system: "ICD10CM", codes: ["E11.9"] }],
  ])("parseOneCode(%s)", (raw, parsed) => {
    expect(parseOneCode(raw)).toEqual(parsed);
  });

  it.each([
    ["CPT:97110,97112", /names 2 codes/],
    ["97110", /has no code system/],
    ["ICD10PCS:0DTJ4ZZ", /does not accept ICD-10-PCS/],
  ])("parseOneCode(%s) is exit 2", (raw, message) => {
    expect(() => parseOneCode(raw)).toThrow(message);
  });

  it.each([
    [["body", "policies", "effective_date", "start"], "--effective-on"],
    [["body", "policies", "effective_date", "end"], "--effective-on"],
    [["body", "policies", "states", 0], "--state"],
    [["body", "policies", "lobs", 0], "--lob"],
  ])("codeViewFlagFor(%j) = %s", (loc, flag) => {
    expect(codeViewFlagFor(loc)).toBe(flag);
  });

  it("a probe: no filter, by policy id, 100 a page", () => {
    expect(buildProbeBody(300)).toEqual({ sort: "policy_id_asc", limit: 100, offset: 300 });
  });
});

describe("updates narrowing flags", () => {
  it.each([
    [{}, undefined],
    [{ payer: ["cms,aetna"] }, { payerIds: ["cms", "aetna"], lobs: undefined, refs: undefined }],
    [
      { lob: ["Medicare-Advantage"], code: ["cpt:97110"] },
      {
        payerIds: undefined,
        lobs: ["medicare_advantage"],
        refs: [{ code_system: "CPT", codes: ["97110"] }],
      },
    ],
  ])("buildUpdatesNarrowing(%j)", (flags, narrowing) => {
    expect(buildUpdatesNarrowing(flags)).toEqual(narrowing);
  });

  it.each([
    [{ payer: [" "] }, /--payer needs at least one value/],
    [{ code: ["97110"] }, /no code system/],
    [{ lob: ["commercial,foo"] }, /--lob 'foo' is not a LOB category/],
  ])("bad narrowing %j is exit 2", (flags, message) => {
    expect(() => buildUpdatesNarrowing(flags)).toThrow(message);
  });
});
