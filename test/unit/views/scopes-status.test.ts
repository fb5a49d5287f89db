import { describe, expect, it } from "vitest";
import { STATE_CODES, type Applicability } from "../../../src/contract/index.js";
import { describePayerScopes, formatScopes, pairScopes } from "../../../src/domain/scopes.js";
import { describeStatusDates, versionStatus } from "../../../src/domain/status.js";

// The applicability of evicore/sleep-disorder-management in the bundled sample: the API groups
// payers that share a state and a LOB set, so Humana and Centene sit beside Cigna's scopes.
const EVICORE: Applicability[] = [
  { payer_ids: ["CIGNA"], payer_names: ["Cigna Healthcare"], lobs: ["commercial"], state: null },
  {
    payer_ids: ["CENTENE", "CIGNA"],
    payer_names: ["Centene", "Cigna Healthcare"],
    lobs: ["medicaid"],
    state: "FL",
  },
  {
    payer_ids: ["CIGNA"],
    payer_names: ["Cigna Healthcare"],
    lobs: ["individual_aca"],
    state: "FL",
  },
  { payer_ids: ["HUMANA"], payer_names: ["Humana"], lobs: ["medicaid"], state: "KY" },
];

describe("scopes: a list of every state reads as one (finding N18)", () => {
  const cms = (states: readonly string[]): Applicability[] =>
    states.map((state) => ({
      payer_ids: ["CMS"],
      payer_names: ["Medicare (CMS)"],
      lobs: ["medicare_part_b"],
      state,
    }));
  const notSub = STATE_CODES.filter((c) => !["NF", "SF", "DN", "QN", "UN", "EM", "WM"].includes(c));
  it.each<[string, readonly string[], string]>([
    ["all 56 (a DME MAC's LCD)", notSub, "medicare_part_b · all states and territories"],
    [
      "the fifty and DC",
      [...notSub.filter((c) => !["AS", "GU", "PR", "VI", "CNMI"].includes(c))],
      "medicare_part_b · all 50 states + DC",
    ],
    [
      "the fifty and sub-state codes",
      [...notSub, "NF", "SF"],
      "medicare_part_b · all states and territories + NF SF",
    ],
    ["one short of fifty", notSub.filter((c) => c !== "TX"), ""],
  ])("%s", (_what, states, scope) => {
    const [line] = pairScopes(cms(states));
    if (scope) expect(line?.scope).toBe(scope);
    else expect(line?.scope).toMatch(/^medicare_part_b · AK AL /);
  });
});

describe("scopes: each beside its own payer", () => {
  it("the scopes field: sorted PAYER_ID lob STATE triples, US for nationwide", () => {
    expect(formatScopes(EVICORE)).toBe(
      "CENTENE medicaid FL;CIGNA commercial US;CIGNA individual_aca FL;CIGNA medicaid FL;HUMANA medicaid KY",
    );
  });
  it("one line per payer with only its own scopes", () => {
    expect(describePayerScopes(EVICORE)).toEqual([
      "Centene: medicaid · FL",
      "Cigna Healthcare: commercial · nationwide; medicaid, individual_aca · FL",
      "Humana: medicaid · KY",
    ]);
  });
  it("a payer's nationwide scope absorbs its states of the same LOB; duplicates once", () => {
    const items: Applicability[] = [
      { payer_ids: ["CMS"], payer_names: ["Medicare"], lobs: ["medicare_part_b"], state: null },
      { payer_ids: ["CMS"], payer_names: ["Medicare"], lobs: ["medicare_part_b"], state: "CA" },
      { payer_ids: ["CMS"], payer_names: ["Medicare"], lobs: ["medicare_part_a"], state: "NV" },
      { payer_ids: ["CMS"], payer_names: ["Medicare"], lobs: ["medicare_part_a"], state: "CA" },
    ];
    expect(pairScopes(items)).toEqual([
      {
        payer_id: "CMS",
        payer_name: "Medicare",
        scope: "medicare_part_a · CA NV; medicare_part_b · nationwide",
      },
    ]);
    expect(formatScopes(items)).toBe(
      "CMS medicare_part_a CA;CMS medicare_part_a NV;CMS medicare_part_b CA;CMS medicare_part_b US",
    );
  });
  it("nothing: empty", () => {
    expect(formatScopes([])).toBe("");
    expect(pairScopes([])).toEqual([]);
  });
});

describe("status words on the engine's today", () => {
  it.each([
    // [from, to, today, status, dates]
    ["2027-01-01", null, "2026-11-21", "upcoming", "starts 2027-01-01"],
    ["2027-01-01", "2028-01-01", "2026-11-21", "upcoming", "starts 2027-01-01, ends 2028-01-01"],
    ["2026-01-01", null, "2026-11-21", "active", "from 2026-01-01"],
    ["2026-11-21", null, "2026-11-21", "active", "from 2026-11-21"],
    ["2025-01-01", "2026-12-01", "2026-11-21", "ending", "ends 2026-12-01"],
    ["2025-01-01", "2026-11-22", "2026-11-21", "ending", "ends 2026-11-22"],
    // The end date is exclusive: on it, the version is no longer in effect.
    ["2025-01-01", "2026-11-21", "2026-11-21", "retired", "ended 2026-11-21"],
    ["2025-01-01", "2026-01-01", "2026-11-21", "retired", "ended 2026-01-01"],
  ] as const)("%s..%s on %s: %s (%s)", (from, to, today, status, dates) => {
    const v = { effective_from_date: from, effective_to_date: to };
    expect(versionStatus(v, today)).toBe(status);
    expect(describeStatusDates(v, today)).toBe(dates);
  });
});
