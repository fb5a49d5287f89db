import { describe, expect, it } from "vitest";
import type { PolicyFilter } from "../../../src/contract/index.js";
import type { PolicyRecord } from "../../../src/engine/db.js";
import {
  hasScopeFilter,
  matchesLobId,
  matchesScope,
  selectLinks,
} from "../../../src/engine/links.js";
import { allIds, link, policy, rulesDb } from "./rules-fixture.js";

const TODAY = "2026-06-01";

// One version with links of every kind relative to TODAY and to a 2023 window.
const db = rulesDb([
  policy("x/links/2020-01-01", {
    applicability: [
      link("AET_commercial_CA", "2020-01-01", "2023-06-01"), // ended long ago
      link("AET_medicaid_NY", "2020-01-01", "2026-06-01"), // ended exactly today
      link("BCB_commercial_CA", "2020-01-01", "2026-06-02"), // ends tomorrow
      link("CMS_medicare_part_b_US", "2024-01-01", null), // open
      link("UHC_commercial_TX", "2027-01-01", null), // starts in the future
    ],
  }),
]);
const version = db.byId.get("x/links/2020-01-01") as PolicyRecord;
const lobIds = (filter: PolicyFilter | null) =>
  selectLinks(version, filter, TODAY).map((l) => l.lob.lob_id);

describe("selectLinks (rule Filter 3: which links the scope filters use)", () => {
  it.each<{ name: string; filter: PolicyFilter | null; expected: string[] }>([
    {
      name: "no filter: current links (not ended as of today), future starts included",
      filter: null,
      expected: ["BCB_commercial_CA", "CMS_medicare_part_b_US", "UHC_commercial_TX"],
    },
    {
      name: "retired false: still the current links",
      filter: { retired: false },
      expected: ["BCB_commercial_CA", "CMS_medicare_part_b_US", "UHC_commercial_TX"],
    },
    {
      name: "retired true: every link ever",
      filter: { retired: true },
      expected: [
        "AET_commercial_CA",
        "AET_medicaid_NY",
        "BCB_commercial_CA",
        "CMS_medicare_part_b_US",
        "UHC_commercial_TX",
      ],
    },
    {
      name: "a window: the links overlapping it (start inclusive, to exclusive)",
      filter: { effective_date: { start: "2023-06-01", end: "2023-12-31" } },
      expected: ["AET_medicaid_NY", "BCB_commercial_CA"],
    },
    {
      name: "a window wins over retired true",
      filter: { retired: true, effective_date: { start: "2023-05-31", end: "2023-05-31" } },
      expected: ["AET_commercial_CA", "AET_medicaid_NY", "BCB_commercial_CA"],
    },
    {
      name: "a window with an open end reaches future links",
      filter: { effective_date: { start: "2026-06-01", end: null } },
      expected: ["BCB_commercial_CA", "CMS_medicare_part_b_US", "UHC_commercial_TX"],
    },
    {
      name: "a window ending before a link starts leaves it out (end inclusive)",
      filter: { effective_date: { start: null, end: "2023-12-31" } },
      expected: ["AET_commercial_CA", "AET_medicaid_NY", "BCB_commercial_CA"],
    },
  ])("$name", ({ filter, expected }) => {
    expect(lobIds(filter)).toEqual(expected);
  });
});

describe("matchesLobId (rule Filter 4: trailing separator = nationwide LOB)", () => {
  const lob = (id: string) => {
    const found = db.lobById.get(id);
    if (!found) throw new Error(id);
    return found;
  };
  it.each([
    { value: "AET_commercial_CA", lob: "AET_commercial_CA", expected: true },
    { value: "AET_commercial_US", lob: "AET_commercial_US", expected: true },
    { value: "AET_commercial_", lob: "AET_commercial_US", expected: true },
    { value: "AET_commercial_", lob: "AET_commercial_CA", expected: false },
    { value: "AET_commercial", lob: "AET_commercial_US", expected: false },
    { value: "AET_medicaid_", lob: "AET_commercial_US", expected: false },
    { value: "BCB_commercial_", lob: "AET_commercial_US", expected: false },
    { value: "UHC_commercial_", lob: "uhc-national-comm", expected: true },
    { value: "UHC_commercial_", lob: "UHC_commercial_TX", expected: false },
    { value: "aet_commercial_ca", lob: "AET_commercial_CA", expected: false },
  ])("$value vs $lob -> $expected", ({ value, lob: id, expected }) => {
    expect(matchesLobId(value, lob(id))).toBe(expected);
  });
});

describe("hasScopeFilter", () => {
  it.each<[PolicyFilter | null, boolean]>([
    [null, false],
    [{}, false],
    [{ q: "x", retired: true }, false],
    [{ payer_ids: ["AET"] }, true],
    [{ lobs: ["commercial"] }, true],
    [{ lob_ids: ["AET_commercial_"] }, true],
    [{ states: ["CA"] }, true],
    [{ payer_ids: null, states: null }, false],
  ])("%j -> %s", (filter, expected) => {
    expect(hasScopeFilter(filter)).toBe(expected);
  });
});

describe("matchesScope (rule Filter 4: one and the same link satisfies every scope filter)", () => {
  const links = selectLinks(version, { retired: true }, TODAY);
  it.each<{ name: string; filter: PolicyFilter; expected: boolean }>([
    { name: "payer alone", filter: { payer_ids: ["AET"] }, expected: true },
    { name: "payer OR-ed", filter: { payer_ids: ["nope", "UHC"] }, expected: true },
    { name: "unknown payer", filter: { payer_ids: ["nope"] }, expected: false },
    {
      name: "payer + its category",
      filter: { payer_ids: ["AET"], lobs: ["medicaid"] },
      expected: true,
    },
    {
      name: "payer + a category only another payer's link has",
      filter: { payer_ids: ["AET"], lobs: ["medicare_part_b"] },
      expected: false,
    },
    {
      name: "payer + state of another payer's link",
      filter: { payer_ids: ["UHC"], states: ["CA"] },
      expected: false,
    },
    {
      name: "payer + its own state",
      filter: { payer_ids: ["UHC"], states: ["TX"] },
      expected: true,
    },
    {
      name: "state matched by a nationwide link of that payer",
      filter: { payer_ids: ["CMS"], states: ["WY"] },
      expected: true,
    },
    {
      name: "category + state on different links",
      filter: { lobs: ["medicaid"], states: ["CA"] },
      expected: false,
    },
    {
      name: "lob id + payer of the same link",
      filter: { lob_ids: ["AET_medicaid_NY"], payer_ids: ["AET"] },
      expected: true,
    },
    {
      name: "lob id + payer of another link",
      filter: { lob_ids: ["AET_medicaid_NY"], payer_ids: ["BCB"] },
      expected: false,
    },
    {
      name: "lob id + state that is not the link's",
      filter: { lob_ids: ["AET_medicaid_NY"], states: ["CA"] },
      expected: false,
    },
    {
      name: "all four on one link",
      filter: {
        payer_ids: ["BCB"],
        lobs: ["commercial"],
        lob_ids: ["BCB_commercial_CA"],
        states: ["CA", "NY"],
      },
      expected: true,
    },
    {
      name: "all four, one of them off",
      filter: {
        payer_ids: ["BCB"],
        lobs: ["medicaid"],
        lob_ids: ["BCB_commercial_CA"],
        states: ["CA"],
      },
      expected: false,
    },
    { name: "empty payer list: nothing OR-ed matches", filter: { payer_ids: [] }, expected: false },
  ])("$name -> $expected", ({ filter, expected }) => {
    expect(matchesScope(links, filter)).toBe(expected);
  });
});

describe("scope filters through filterPolicies", () => {
  const scopeDb = rulesDb([
    policy("s/ca-comm/2020-01-01", { applicability: [link("AET_commercial_CA")] }),
    policy("s/nation/2020-01-01", { applicability: [link("AET_commercial_US")] }),
    policy("s/split/2020-01-01", {
      // AET medicaid in NY and BCB commercial in CA: no single link is "AET in CA".
      applicability: [link("AET_medicaid_NY"), link("BCB_commercial_CA")],
    }),
    policy("s/ended/2020-01-01", {
      applicability: [link("AET_commercial_CA", "2020-01-01", "2024-01-01")],
      effective_to_date: "2024-01-01",
    }),
    policy("s/future/2027-01-01", { applicability: [link("UHC_commercial_TX", "2027-01-01")] }),
    policy("s/opaque/2020-01-01", { applicability: [link("uhc-national-comm")] }),
  ]);
  it.each<{ name: string; filter: PolicyFilter; expected: string[] }>([
    {
      name: "states: a state's links plus every nationwide one",
      filter: { states: ["CA"] },
      expected: [
        "s/ca-comm/2020-01-01",
        "s/nation/2020-01-01",
        "s/opaque/2020-01-01",
        "s/split/2020-01-01",
      ],
    },
    {
      name: "payer + state on the same link only",
      filter: { payer_ids: ["AET"], states: ["CA"] },
      expected: ["s/ca-comm/2020-01-01", "s/nation/2020-01-01"],
    },
    {
      name: "current links: an ended link no longer matches",
      filter: { payer_ids: ["AET"], lobs: ["commercial"] },
      expected: ["s/ca-comm/2020-01-01", "s/nation/2020-01-01"],
    },
    {
      name: "retired true: all-time links, so the ended one matches",
      filter: { payer_ids: ["AET"], lobs: ["commercial"], retired: true },
      expected: ["s/ended/2020-01-01"],
    },
    {
      name: "a window picks the links of that time",
      filter: { payer_ids: ["AET"], effective_date: { start: "2021-01-01", end: "2021-01-01" } },
      expected: [
        "s/ca-comm/2020-01-01",
        "s/ended/2020-01-01",
        "s/nation/2020-01-01",
        "s/split/2020-01-01",
      ],
    },
    {
      name: "links that start later are current",
      filter: { payer_ids: ["UHC"], states: ["TX"] },
      expected: ["s/future/2027-01-01", "s/opaque/2020-01-01"],
    },
    {
      name: "trailing-separator lob id finds the nationwide LOB only",
      filter: { lob_ids: ["AET_commercial_"] },
      expected: ["s/nation/2020-01-01"],
    },
    {
      name: "trailing-separator lob id with an opaque nationwide id",
      filter: { lob_ids: ["UHC_commercial_"] },
      expected: ["s/opaque/2020-01-01"],
    },
    {
      name: "lob ids OR-ed",
      filter: { lob_ids: ["AET_commercial_CA", "AET_commercial_"] },
      expected: ["s/ca-comm/2020-01-01", "s/nation/2020-01-01"],
    },
  ])("$name", ({ filter, expected }) => {
    expect(allIds(scopeDb, { policies: filter, sort: "policy_id_asc" })).toEqual(expected);
  });
});
