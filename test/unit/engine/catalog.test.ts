import { describe, expect, it } from "vitest";
import type { LobsQuery, PayersQuery } from "../../../src/contract/index.js";
import { listLobs, listPayers } from "../../../src/engine/catalog.js";
import { buildDb, policy } from "../../helpers/build-db.js";

const db = buildDb({
  payers: [
    { payer_id: "P1", display_name: "alpha" },
    { payer_id: "P2", display_name: "Beta" },
    { payer_id: "P3", display_name: "ALPHA" },
    { payer_id: "P0", display_name: "Unlinked" },
    { payer_id: "P4", display_name: "LOB but no policy" },
  ],
  lobs: [
    { lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial", state: null },
    { lob_id: "P1_medicaid_CA", payer_id: "P1", lob: "medicaid", state: "CA" },
    { lob_id: "P2_commercial_CA", payer_id: "P2", lob: "commercial", state: "CA" },
    { lob_id: "P3_medicare_advantage_TX", payer_id: "P3", lob: "medicare_advantage", state: "TX" },
    { lob_id: "P4_medicaid_US", payer_id: "P4", lob: "medicaid", state: null },
    { lob_id: "A_first", payer_id: "P0", lob: "individual_aca", state: "NY" },
  ],
  policies: [
    policy("s/one/2020-01-01", {
      effective_to_date: "2021-01-01",
      // An ended link still makes the payer listed ("ever").
      applicability: [{ lob_id: "P2_commercial_CA", from: "2020-01-01", to: "2021-01-01" }],
    }),
    policy("s/two/2026-01-01", {
      applicability: [
        { lob_id: "P1_medicaid_CA", from: "2026-01-01", to: null },
        { lob_id: "P3_medicare_advantage_TX", from: "2030-01-01", to: null },
      ],
    }),
  ],
});

const ids = (page: { data: Array<{ payer_id?: string; lob_id?: string }> }) =>
  page.data.map((d) => d.lob_id ?? d.payer_id);

describe("listPayers (rules: Payers and LOBs)", () => {
  const cases: Array<{ name: string; query: PayersQuery; expected: string[]; more?: boolean }> = [
    {
      name: "payers linked ever, by name case-insensitively then id",
      query: {},
      expected: ["P1", "P3", "P2"],
    },
    {
      name: "lobs narrows to links of that category",
      query: { lobs: ["medicaid"] },
      expected: ["P1"],
    },
    {
      name: "several lobs are OR-ed",
      query: { lobs: ["commercial", "medicare_advantage"] },
      expected: ["P3", "P2"],
    },
    {
      name: "a category only unlinked LOBs have gives nothing",
      query: { lobs: ["individual_aca"] },
      expected: [],
    },
    { name: "limit cuts, has_more", query: { limit: 2 }, expected: ["P1", "P3"], more: true },
    { name: "offset skips", query: { limit: 2, offset: 2 }, expected: ["P2"], more: false },
    { name: "offset past the end", query: { offset: 10 }, expected: [], more: false },
  ];
  it.each(cases)("$name", ({ query, expected, more }) => {
    const page = listPayers(db, query);
    expect(ids(page)).toEqual(expected);
    expect(page).toMatchObject({
      limit: query.limit ?? 20,
      offset: query.offset ?? 0,
      has_more: more ?? false,
    });
  });

  it("items carry exactly payer_id and display_name", () => {
    expect(listPayers(db, { limit: 1 }).data).toEqual([{ payer_id: "P1", display_name: "alpha" }]);
  });
});

describe("listLobs (rules: Payers and LOBs)", () => {
  const cases: Array<{ name: string; query: LobsQuery; expected: string[]; more?: boolean }> = [
    {
      name: "every LOB, linked or not, by lob_id",
      query: {},
      expected: [
        "A_first",
        "P1_commercial_US",
        "P1_medicaid_CA",
        "P2_commercial_CA",
        "P3_medicare_advantage_TX",
        "P4_medicaid_US",
      ],
    },
    {
      name: "by category",
      query: { lobs: ["medicaid"] },
      expected: ["P1_medicaid_CA", "P4_medicaid_US"],
    },
    {
      name: "by payer",
      query: { payer_ids: ["P1", "P3"] },
      expected: ["P1_commercial_US", "P1_medicaid_CA", "P3_medicare_advantage_TX"],
    },
    {
      name: "states match exactly: nationwide LOBs are not returned",
      query: { states: ["CA"] },
      expected: ["P1_medicaid_CA", "P2_commercial_CA"],
    },
    {
      name: "filters are AND-ed",
      query: { states: ["CA"], payer_ids: ["P1"], lobs: ["medicaid", "commercial"] },
      expected: ["P1_medicaid_CA"],
    },
    { name: "no match", query: { states: ["WY"] }, expected: [] },
    {
      name: "paged",
      query: { limit: 2, offset: 1 },
      expected: ["P1_commercial_US", "P1_medicaid_CA"],
      more: true,
    },
  ];
  it.each(cases)("$name", ({ query, expected, more }) => {
    const page = listLobs(db, query);
    expect(ids(page)).toEqual(expected);
    expect(page.has_more).toBe(more ?? false);
  });

  it.each([
    {
      lob: "P1_commercial_US",
      expected: {
        lob_id: "P1_commercial_US",
        payer_id: "P1",
        payer_name: "alpha",
        lob: "commercial",
      },
    },
    {
      lob: "P2_commercial_CA",
      expected: {
        lob_id: "P2_commercial_CA",
        payer_id: "P2",
        payer_name: "Beta",
        lob: "commercial",
        state: "CA",
      },
    },
  ])("$lob: payer_name from the payer, state key only when it has one", ({ lob, expected }) => {
    const item = listLobs(db, { limit: 100 }).data.find((l) => l.lob_id === lob);
    expect(item).toStrictEqual(expected);
  });
});
