import { describe, expect, it } from "vitest";
import {
  addDays,
  isCurrent,
  isInEffect,
  matchesRetired,
  overlapsWindow,
  resolveToday,
  versionState,
} from "../../../src/engine/time.js";

const NOW = new Date("2030-03-04T23:59:00Z");

describe("resolveToday (rule Time 1: flag > env > as_of > real date)", () => {
  it.each([
    { flag: "2026-01-01", env: "2025-01-01", asOf: "2024-01-01", expected: "2026-01-01" },
    { flag: undefined, env: "2025-01-01", asOf: "2024-01-01", expected: "2025-01-01" },
    { flag: undefined, env: undefined, asOf: "2024-01-01", expected: "2024-01-01" },
    { flag: undefined, env: undefined, asOf: null, expected: "2030-03-04" },
    { flag: "", env: "", asOf: null, expected: "2030-03-04" },
  ])("flag=$flag env=$env as_of=$asOf -> $expected", ({ flag, env, asOf, expected }) => {
    expect(resolveToday(flag, env, asOf, NOW)).toBe(expected);
  });
});

describe("versionState (rule Time 2)", () => {
  const today = "2026-06-01";
  it.each([
    { from: "2026-06-01", to: null, expected: "active", why: "starts today" },
    { from: "2020-01-01", to: null, expected: "active", why: "started, no end" },
    { from: "2026-06-02", to: null, expected: "upcoming", why: "starts tomorrow, no end" },
    { from: "2020-01-01", to: "2026-06-01", expected: "retired", why: "ended today" },
    { from: "2020-01-01", to: "2030-01-01", expected: "retired", why: "end date in the future" },
    {
      from: "2027-01-01",
      to: "2027-06-01",
      expected: "upcoming",
      why: "not started yet, so not ended either: upcoming wins",
    },
  ])("$from..$to: $expected ($why)", ({ from, to, expected }) => {
    expect(versionState({ effective_from_date: from, effective_to_date: to }, today)).toBe(
      expected,
    );
  });
});

describe("isInEffect (rule Time 3: [from, to) on day d)", () => {
  it.each([
    { from: "2024-01-01", to: null, day: "2024-01-01", expected: true },
    { from: "2024-01-01", to: null, day: "2023-12-31", expected: false },
    { from: "2024-01-01", to: "2025-01-01", day: "2024-12-31", expected: true },
    { from: "2024-01-01", to: "2025-01-01", day: "2025-01-01", expected: false },
    { from: "2024-01-01", to: null, day: "2099-01-01", expected: true },
  ])("[$from, $to) on $day: $expected", ({ from, to, day, expected }) => {
    expect(isInEffect(from, to, day)).toBe(expected);
  });
});

describe("matchesRetired (rule Filter 1)", () => {
  it.each([
    { to: "2025-01-01", retired: true, expected: true },
    { to: null, retired: true, expected: false },
    { to: "2025-01-01", retired: false, expected: false },
    { to: null, retired: false, expected: true },
    { to: "2025-01-01", retired: null, expected: true },
    { to: null, retired: null, expected: true },
    { to: "2025-01-01", retired: undefined, expected: true },
    { to: null, retired: undefined, expected: true },
  ])("to=$to retired=$retired -> $expected", ({ to, retired, expected }) => {
    expect(matchesRetired(to, retired)).toBe(expected);
  });
});

describe("overlapsWindow (rule Filter 2: [from, to) against inclusive [start, end])", () => {
  it.each([
    { from: "2024-01-01", to: "2025-01-01", start: "2024-12-31", end: null, expected: true },
    {
      from: "2024-01-01",
      to: "2025-01-01",
      start: "2025-01-01",
      end: null,
      expected: false,
      why: "to is exclusive",
    },
    { from: "2024-01-01", to: null, start: "2099-01-01", end: null, expected: true },
    {
      from: "2024-01-01",
      to: null,
      start: null,
      end: "2024-01-01",
      expected: true,
      why: "end is inclusive",
    },
    { from: "2024-01-02", to: null, start: null, end: "2024-01-01", expected: false },
    { from: "2024-01-01", to: "2024-06-01", start: null, end: null, expected: true },
    {
      from: "2024-03-01",
      to: "2024-04-01",
      start: "2024-01-01",
      end: "2024-12-31",
      expected: true,
    },
    {
      from: "2023-01-01",
      to: "2030-01-01",
      start: "2024-01-01",
      end: "2024-01-01",
      expected: true,
    },
    {
      from: "2024-01-01",
      to: "2024-02-01",
      start: "2024-02-01",
      end: "2024-02-01",
      expected: false,
    },
    {
      from: "2024-02-01",
      to: "2024-03-01",
      start: "2024-02-01",
      end: "2024-02-01",
      expected: true,
    },
  ])("[$from, $to) vs [$start, $end]: $expected", ({ from, to, start, end, expected }) => {
    expect(overlapsWindow(from, to, { start, end })).toBe(expected);
  });

  it("treats absent window ends like null ones", () => {
    expect(overlapsWindow("2024-01-01", "2024-02-01", {})).toBe(true);
    expect(overlapsWindow("2024-01-01", "2024-02-01", { start: "2024-02-01" })).toBe(false);
  });
});

describe("isCurrent (rule Filter 3: not ended as of today, future starts included)", () => {
  it.each([
    { to: null, today: "2026-06-01", expected: true },
    { to: "2026-06-02", today: "2026-06-01", expected: true },
    { to: "2026-06-01", today: "2026-06-01", expected: false },
    { to: "2020-01-01", today: "2026-06-01", expected: false },
  ])("to=$to on $today -> $expected", ({ to, today, expected }) => {
    expect(isCurrent(to, today)).toBe(expected);
  });
});

describe("addDays", () => {
  it.each([
    ["2024-03-01", -1, "2024-02-29"],
    ["2023-12-31", 1, "2024-01-01"],
    ["2026-06-01", -30, "2026-05-02"],
  ] as const)("%s %+d -> %s", (day, n, expected) => {
    expect(addDays(day, n)).toBe(expected);
  });
});
