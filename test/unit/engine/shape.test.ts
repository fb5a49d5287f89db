import { describe, expect, it } from "vitest";
import type { PolicyRecord } from "../../../src/engine/db.js";
import { buildApplicability, buildCodeGroups } from "../../../src/engine/shape.js";
import { code, link, policy, rulesDb } from "./rules-fixture.js";

type Json = Record<string, unknown>;

describe("buildApplicability (rule Shapes: grouping and order)", () => {
  const cases: Array<{ name: string; links: Json[]; expected: unknown[] }> = [
    { name: "no links: empty list", links: [], expected: [] },
    {
      name: "nationwide keeps state null",
      links: [link("CMS_medicare_part_b_US")],
      expected: [
        {
          payer_ids: ["CMS"],
          payer_names: ["Medicare (CMS)"],
          lobs: ["medicare_part_b"],
          state: null,
        },
      ],
    },
    {
      name: "same state, same category set: one item, payers sorted",
      links: [link("BCB_commercial_CA"), link("AET_commercial_CA")],
      expected: [
        {
          payer_ids: ["AET", "BCB"],
          payer_names: ["Aetna", "blue Cross"],
          lobs: ["commercial"],
          state: "CA",
        },
      ],
    },
    {
      name: "same state, different category sets: separate items, by first payer id",
      links: [link("BCB_commercial_CA"), link("AET_commercial_CA"), link("AET_medicaid_CA")],
      expected: [
        {
          payer_ids: ["AET"],
          payer_names: ["Aetna"],
          lobs: ["commercial", "medicaid"],
          state: "CA",
        },
        { payer_ids: ["BCB"], payer_names: ["blue Cross"], lobs: ["commercial"], state: "CA" },
      ],
    },
    {
      name: "category sets compared as sets (link order does not matter)",
      links: [
        link("AET_medicaid_CA"),
        link("AET_commercial_CA"),
        link("BCB_commercial_CA"),
        link("BCB_medicaid_CA"),
      ],
      expected: [
        {
          payer_ids: ["AET", "BCB"],
          payer_names: ["Aetna", "blue Cross"],
          lobs: ["commercial", "medicaid"],
          state: "CA",
        },
      ],
    },
    {
      name: "lobs in the spec's enumeration order, not alphabetical",
      links: [link("CMS_medicare_part_b_US"), link("CMS_medicare_part_a_US")],
      expected: [
        {
          payer_ids: ["CMS"],
          payer_names: ["Medicare (CMS)"],
          lobs: ["medicare_part_a", "medicare_part_b"],
          state: null,
        },
      ],
    },
    {
      name: "nationwide first, then states by code, then first payer id",
      links: [
        link("UHC_commercial_TX"),
        link("BCB_medicaid_TX"),
        link("AET_medicaid_NY"),
        link("BCB_commercial_US"),
        link("CMS_medicare_part_b_NF"),
        link("AET_commercial_US"),
      ],
      expected: [
        {
          payer_ids: ["AET", "BCB"],
          payer_names: ["Aetna", "blue Cross"],
          lobs: ["commercial"],
          state: null,
        },
        {
          payer_ids: ["CMS"],
          payer_names: ["Medicare (CMS)"],
          lobs: ["medicare_part_b"],
          state: "NF",
        },
        { payer_ids: ["AET"], payer_names: ["Aetna"], lobs: ["medicaid"], state: "NY" },
        { payer_ids: ["BCB"], payer_names: ["blue Cross"], lobs: ["medicaid"], state: "TX" },
        { payer_ids: ["UHC"], payer_names: ["United"], lobs: ["commercial"], state: "TX" },
      ],
    },
    {
      name: "a payer's state links and nationwide links are separate scopes",
      links: [link("AET_commercial_CA"), link("AET_commercial_US")],
      expected: [
        { payer_ids: ["AET"], payer_names: ["Aetna"], lobs: ["commercial"], state: null },
        { payer_ids: ["AET"], payer_names: ["Aetna"], lobs: ["commercial"], state: "CA" },
      ],
    },
    {
      name: "repeated links of one LOB count once",
      links: [
        link("AET_commercial_CA", "2020-01-01", "2021-01-01"),
        link("AET_commercial_CA", "2022-01-01"),
      ],
      expected: [{ payer_ids: ["AET"], payer_names: ["Aetna"], lobs: ["commercial"], state: "CA" }],
    },
  ];
  it.each(cases)("$name", ({ links, expected }) => {
    const db = rulesDb([policy("a/x/2020-01-01", { applicability: links })]);
    const version = db.byId.get("a/x/2020-01-01") as PolicyRecord;
    expect(buildApplicability(version.links)).toEqual(expected);
  });
});

describe("buildCodeGroups (rule Shapes: code groups)", () => {
  const catalogue = [
    { code_system: "CPT", code: "97110", description: "Exercise" },
    { code_system: "CPT", code: "97112", description: "Balance" },
    { code_system: "ICD10CM", code: "G47.33", description: "Apnea" },
    { code_system: "HCPCS", code: "E0601", description: "CPAP" },
  ];
  const cases: Array<{ name: string; codes: Json[]; expected: unknown[] }> = [
    { name: "no codes: empty list", codes: [], expected: [] },
    {
      name: "ordered by system enum, then COVERS, DOES_NOT_COVER, REFERENCES, then category null first",
      codes: [
        code("ICD10CM", "G4733", "COVERS"),
        code("CPT", "97110", "REFERENCES"),
        code("HCPCS", "E0601", "COVERS", "Devices"),
        code("CPT", "97112", "DOES_NOT_COVER"),
        code("CPT", "97110", "COVERS", "b"),
        code("CPT", "97112", "COVERS", "B"),
        code("CPT", "97110", "COVERS"),
        code("CPT_MODIFIER", "59", "REFERENCES"),
        code("HCPCS_MODIFIER", "KX", "REFERENCES"),
      ],
      expected: [
        {
          code_system: "CPT",
          relationship: "COVERS",
          category: null,
          codes: ["97110"],
          descriptions: ["Exercise"],
        },
        {
          code_system: "CPT",
          relationship: "COVERS",
          category: "B",
          codes: ["97112"],
          descriptions: ["Balance"],
        },
        {
          code_system: "CPT",
          relationship: "COVERS",
          category: "b",
          codes: ["97110"],
          descriptions: ["Exercise"],
        },
        {
          code_system: "CPT",
          relationship: "DOES_NOT_COVER",
          category: null,
          codes: ["97112"],
          descriptions: ["Balance"],
        },
        {
          code_system: "CPT",
          relationship: "REFERENCES",
          category: null,
          codes: ["97110"],
          descriptions: ["Exercise"],
        },
        { code_system: "CPT_MODIFIER", relationship: "REFERENCES", category: null, codes: ["59"] },
        {
          code_system: "HCPCS",
          relationship: "COVERS",
          category: "Devices",
          codes: ["E0601"],
          descriptions: ["CPAP"],
        },
        {
          code_system: "HCPCS_MODIFIER",
          relationship: "REFERENCES",
          category: null,
          codes: ["KX"],
        },
        {
          code_system: "ICD10CM",
          relationship: "COVERS",
          category: null,
          codes: ["G4733"],
          descriptions: ["Apnea"],
        },
      ],
    },
    {
      name: "codes in dataset order (as written), descriptions aligned 1:1",
      codes: [code("CPT", "97112"), code("CPT", "97110"), code("ICD10CM", "g47.33")],
      expected: [
        {
          code_system: "CPT",
          relationship: "COVERS",
          category: null,
          codes: ["97112", "97110"],
          descriptions: ["Balance", "Exercise"],
        },
        {
          code_system: "ICD10CM",
          relationship: "COVERS",
          category: null,
          codes: ["g47.33"],
          descriptions: ["Apnea"],
        },
      ],
    },
    {
      name: "descriptions left out when one code of the group is unknown",
      codes: [code("CPT", "97110"), code("CPT", "99999"), code("CPT", "97112", "REFERENCES")],
      expected: [
        { code_system: "CPT", relationship: "COVERS", category: null, codes: ["97110", "99999"] },
        {
          code_system: "CPT",
          relationship: "REFERENCES",
          category: null,
          codes: ["97112"],
          descriptions: ["Balance"],
        },
      ],
    },
  ];
  it.each(cases)("$name", ({ codes, expected }) => {
    const db = rulesDb([policy("g/x/2020-01-01", { codes })], catalogue);
    const groups = buildCodeGroups(db, db.byId.get("g/x/2020-01-01") as PolicyRecord);
    expect(groups).toEqual(expected);
    // `descriptions` is absent, not null or empty, when it is left out.
    for (const g of groups)
      if (!("descriptions" in (expected[groups.indexOf(g)] as Json)))
        expect(g).not.toHaveProperty("descriptions");
  });
});
