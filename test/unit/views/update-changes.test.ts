import { describe, expect, it } from "vitest";
import type { PolicyDetail, PolicyUpdate } from "../../../src/contract/index.js";
import {
  annotateUpdate,
  matchesUpdate,
  needsDetail,
  type UpdateNarrowing,
} from "../../../src/views/update-changes.js";

const item = (payer_id: string): PolicyUpdate =>
  ({
    policy_id: "k/2026-01-01",
    policy_number: "K",
    title: "T",
    effective_from_date: "2026-01-01",
    change_type: "updated",
    payer_id,
    payer_display_name: payer_id,
    file_url: "",
  }) as PolicyUpdate;

const DETAIL = {
  applicability: [
    { payer_ids: ["AETNA"], payer_names: ["Aetna"], lobs: ["commercial"] },
    { payer_ids: ["CIGNA"], payer_names: ["Cigna"], lobs: ["medicaid"], state: "TX" },
  ],
  code_groups: [
    { code_system: "ICD10CM", relationship: "COVERS", category: null, codes: ["E11.9"] },
  ],
} as unknown as PolicyDetail;

describe("matchesUpdate (updates --payer/--lob/--code)", () => {
  it.each<[string, string, UpdateNarrowing, boolean]>([
    ["no narrowing", "AETNA", {}, true],
    ["payer, any case", "AETNA", { payerIds: ["aetna"] }, true],
    ["another payer", "AETNA", { payerIds: ["CIGNA"] }, false],
    ["the item's payer has the LOB", "AETNA", { lobs: ["commercial"] }, true],
    // Payer and LOB are one scope: CIGNA's LOB is medicaid, not commercial.
    ["another payer's LOB does not count", "CIGNA", { lobs: ["commercial"] }, false],
    ["code, dotless", "AETNA", { refs: [{ code_system: "ICD10CM", codes: ["e119"] }] }, true],
    ["code absent", "AETNA", { refs: [{ code_system: "CPT", codes: ["97110"] }] }, false],
  ])("%s", (_name, payer, n, expected) => {
    expect(matchesUpdate(item(payer), DETAIL, n)).toBe(expected);
  });

  it.each<[UpdateNarrowing, boolean]>([
    [{}, false],
    [{ payerIds: ["A"] }, false],
    [{ lobs: ["commercial"] }, true],
    [{ refs: [{ code_system: "CPT", codes: ["97110"] }] }, true],
  ])("needsDetail(%j) = %s", (n, expected) => {
    expect(needsDetail(n)).toBe(expected);
  });

  it("annotateUpdate keeps the API's fields and adds two", () => {
    expect(annotateUpdate(item("A"), ["codes changed"], "k/2025-01-01")).toEqual({
      ...item("A"),
      changes: ["codes changed"],
      predecessor_id: "k/2025-01-01",
    });
  });
});
