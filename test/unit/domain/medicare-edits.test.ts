import { describe, expect, it } from "vitest";
import {
  feeAmount,
  priorAuthApplies,
  ptpEditApplies,
  type PriorAuthEntry,
  type PtpEdit,
} from "../../../src/domain/medicare-edits.js";

const edit = (over: Partial<PtpEdit>): PtpEdit => ({
  setting: "practitioner",
  program: "medicare",
  column1: "11111",
  column2: "22222",
  pre_1996: false,
  effective: "2022-01-01",
  deletion: null,
  modifier_indicator: 1,
  rationale: "",
  release: "v322r0",
  ...over,
});

describe("Medicare's edit rules", () => {
  it.each([
    ["before its effective date", {}, "2021-12-31", false],
    ["on its effective date", {}, "2022-01-01", true],
    ["on its deletion date", { deletion: "2023-12-31" }, "2023-12-31", true],
    ["after its deletion date", { deletion: "2023-12-31" }, "2024-01-01", false],
    [
      "indicator 9 (deleted the day it took effect)",
      { modifier_indicator: 9 as const, deletion: "2022-01-01" },
      "2022-01-01",
      false,
    ],
    ["a deletion before the effective date", { deletion: "2021-06-30" }, "2022-03-01", false],
  ])("a PTP edit %s", (_n, over, date, applies) => {
    expect(ptpEditApplies(edit(over), date)).toBe(applies);
  });

  const pa = (states: string[], to: string | null): PriorAuthEntry => ({
    code: "64483",
    program: "WISeR",
    category: "",
    states,
    from: "2026-01-15",
    to,
    source: "",
    release: "",
  });
  it.each([
    [["TX"], "TX", "2026-01-15", true],
    [["TX"], "CA", "2026-06-01", false],
    [["TX"], undefined, "2026-06-01", false],
    [[], undefined, "2026-06-01", true],
    [["TX"], "TX", "2026-01-14", false],
    [["CA"], "NF", "2026-06-01", true],
  ])("prior authorization %j in %s on %s", (states, state, date, applies) => {
    expect(priorAuthApplies(pa(states, "2031-12-31"), state, date)).toBe(applies);
  });

  it.each([
    // 6.85 RVUs x 33.4009 = 228.796165: half a cent decides nothing here, cents do.
    [{ work: 1.9, pe: 4.76, mp: 0.19 }, { work: 1, pe: 1, mp: 1 }, 33.4009, 228.8],
    [{ work: 1.9, pe: 0.86, mp: 0.19 }, { work: 1, pe: 1, mp: 1 }, 33.4009, 98.53],
    [{ work: 1.9, pe: 4.76, mp: 0.19 }, { work: 1.008, pe: 0.993, mp: 1.376 }, 33.4009, 230.58],
    // 0.1 + 0.2 style sums: 0.07 x 3 x 1.0 RVUs at CF 10 = 2.10 exactly.
    [{ work: 0.07, pe: 0.07, mp: 0.07 }, { work: 1, pe: 1, mp: 1 }, 10, 2.1],
  ])("fee amount %j x %j x CF %d = %d", (rvus, gpci, cf, amount) => {
    expect(feeAmount(rvus, gpci, cf)).toBe(amount);
  });
});
