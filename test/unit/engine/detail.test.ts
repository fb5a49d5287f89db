import { describe, expect, it } from "vitest";
import { buildPolicyRequest } from "../../../src/api/endpoints.js";
import { buildPolicyDetail } from "../../../src/engine/detail.js";
import { handleApiRequest, type EngineContext } from "../../../src/engine/router.js";
import { buildDb, policy } from "../../helpers/build-db.js";

const link = (lob_id: string, from = "2024-01-01", to: string | null = null) => ({
  lob_id,
  from,
  to,
});

describe("buildPolicyDetail (rules: Shapes, detail)", () => {
  const cases: Array<{ name: string; links: ReturnType<typeof link>[]; expected: unknown[] }> = [
    { name: "no link: an empty list", links: [], expected: [] },
    {
      name: "nationwide: the state key is left out",
      links: [link("P1_commercial_US")],
      expected: [{ payer_ids: ["P1"], payer_names: ["alpha"], lobs: ["commercial"] }],
    },
    {
      name: "links that ended long ago still count (every link ever)",
      links: [link("P1_medicaid_CA", "2010-01-01", "2011-01-01")],
      expected: [{ payer_ids: ["P1"], payer_names: ["alpha"], lobs: ["medicaid"], state: "CA" }],
    },
    {
      name: "links that start later count too",
      links: [link("P3_medicare_advantage_TX", "2030-01-01")],
      expected: [
        { payer_ids: ["P3"], payer_names: ["ALPHA"], lobs: ["medicare_advantage"], state: "TX" },
      ],
    },
    {
      name: "payers with the same state and category set share one item",
      links: [link("P2_medicaid_CA"), link("P1_medicaid_CA")],
      expected: [
        {
          payer_ids: ["P1", "P2"],
          payer_names: ["Beta", "alpha"],
          lobs: ["medicaid"],
          state: "CA",
        },
      ],
    },
    {
      name: "a different category set splits them; ordered by first payer id",
      links: [link("P2_commercial_CA"), link("P2_medicaid_CA"), link("P1_medicaid_CA")],
      expected: [
        { payer_ids: ["P1"], payer_names: ["alpha"], lobs: ["medicaid"], state: "CA" },
        {
          payer_ids: ["P2"],
          payer_names: ["Beta"],
          lobs: ["commercial", "medicaid"],
          state: "CA",
        },
      ],
    },
    {
      name: "nationwide first, then by state",
      links: [link("P3_medicare_advantage_TX"), link("P2_commercial_CA"), link("P1_commercial_US")],
      expected: [
        { payer_ids: ["P1"], payer_names: ["alpha"], lobs: ["commercial"] },
        { payer_ids: ["P2"], payer_names: ["Beta"], lobs: ["commercial"], state: "CA" },
        { payer_ids: ["P3"], payer_names: ["ALPHA"], lobs: ["medicare_advantage"], state: "TX" },
      ],
    },
  ];
  it.each(cases)("applicability: $name", ({ links, expected }) => {
    const db = buildDb({ policies: [policy("s/p/2024-01-01", { applicability: links })] });
    const detail = buildPolicyDetail(db, db.byId.get("s/p/2024-01-01")!);
    expect(detail.applicability).toEqual(expected);
    for (const item of detail.applicability)
      if (item.state === undefined) expect(Object.keys(item)).not.toContain("state");
  });

  it("grouped payers: ids and names sorted inside the item", () => {
    const db = buildDb({
      payers: [
        { payer_id: "Z", display_name: "Zed" },
        { payer_id: "A", display_name: "Ann" },
      ],
      lobs: [
        { lob_id: "Z_c", payer_id: "Z", lob: "commercial", state: "CA" },
        { lob_id: "A_c", payer_id: "A", lob: "commercial", state: "CA" },
      ],
      policies: [policy("s/p/2024-01-01", { applicability: [link("Z_c"), link("A_c")] })],
    });
    expect(buildPolicyDetail(db, db.byId.get("s/p/2024-01-01")!).applicability).toEqual([
      { payer_ids: ["A", "Z"], payer_names: ["Ann", "Zed"], lobs: ["commercial"], state: "CA" },
    ]);
  });

  it("keeps every code group, descriptions only when the catalogue knows each code", () => {
    const db = buildDb({
      codes: [
        { code_system: "HCPCS", code: "E0601", description: "CPAP device" },
        { code_system: "ICD10CM", code: "G47.33", description: "Obstructive sleep apnea" },
      ],
      policies: [
        policy("s/p/2024-01-01", {
          codes: [
            { code_system: "ICD10CM", code: "G4733", relationship: "COVERS", category: null },
            { code_system: "HCPCS", code: "E0601", relationship: "COVERS", category: "Devices" },
            { code_system: "HCPCS", code: "E0470", relationship: "COVERS", category: "Devices" },
            { code_system: "CPT", code: "95810", relationship: "REFERENCES", category: null },
          ],
        }),
      ],
    });
    expect(buildPolicyDetail(db, db.byId.get("s/p/2024-01-01")!).code_groups).toEqual([
      { code_system: "CPT", relationship: "REFERENCES", category: null, codes: ["95810"] },
      {
        code_system: "HCPCS",
        relationship: "COVERS",
        category: "Devices",
        codes: ["E0601", "E0470"],
      },
      {
        code_system: "ICD10CM",
        relationship: "COVERS",
        category: null,
        codes: ["G4733"],
        descriptions: ["Obstructive sleep apnea"],
      },
    ]);
  });

  it.each([
    { criteria: "## Criteria\n\n- one\n", expected: "## Criteria\n\n- one\n" },
    { criteria: null, expected: null },
  ])("criteria_text $criteria is passed through", ({ criteria, expected }) => {
    const db = buildDb({ policies: [policy("s/p/2024-01-01", { criteria_text: criteria })] });
    expect(buildPolicyDetail(db, db.byId.get("s/p/2024-01-01")!).criteria_text).toBe(expected);
  });

  it("has the Policy fields in the spec's order, no score, then criteria_text", () => {
    const db = buildDb({ policies: [policy("s/p/2024-01-01")] });
    expect(Object.keys(buildPolicyDetail(db, db.byId.get("s/p/2024-01-01")!))).toEqual([
      "policy_id",
      "policy_number",
      "title",
      "effective_from_date",
      "effective_to_date",
      "file_url",
      "file_type",
      "listing_url",
      "summary",
      "applicability",
      "code_groups",
      "criteria_text",
    ]);
  });
});

describe("GET /v1/policies/{policy_id} through the router", () => {
  const db = buildDb({
    policies: [policy("cms-ncd/240.4/2008-03-13"), policy("x/a b/c/2024-01-01")],
  });
  const ctx: EngineContext = { db, today: "2026-06-01", linkFor: () => "file:///x" };
  it.each([
    { id: "cms-ncd/240.4/2008-03-13", status: 200 },
    { id: "x/a b/c/2024-01-01", status: 200 },
    { id: "cms-ncd/240.4", status: 404 },
    { id: "nope", status: 404 },
  ])("$id -> $status", ({ id, status }) => {
    const res = handleApiRequest(ctx, buildPolicyRequest(id));
    expect(res.status).toBe(status);
    if (status === 404) expect(res.body).toEqual({ detail: "Policy not found" });
    else expect((res.body as { policy_id: string }).policy_id).toBe(id);
  });
});
