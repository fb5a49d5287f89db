import { describe, expect, it } from "vitest";
import { deadlineMs, describeDeadline, resolvePullLimits } from "../../../src/pull/wire-limits.js";

describe("data pull: the stall limit and the deadline", () => {
  it.each<[string, Record<string, string>, Record<string, string>, number, number | undefined]>([
    ["defaults", {}, {}, 60_000, undefined],
    ["flags", { stallTimeout: "5", deadline: "90" }, {}, 5_000, 90_000],
    [
      "environment",
      {},
      { COVERAGE_PULL_STALL_TIMEOUT: "0.5", COVERAGE_PULL_DEADLINE: "2" },
      500,
      2_000,
    ],
    [
      "a flag before the environment",
      { stallTimeout: "7" },
      { COVERAGE_PULL_STALL_TIMEOUT: "9" },
      7_000,
      undefined,
    ],
  ])("reads %s", (_, flags, env, stallMs, fixed) => {
    expect(resolvePullLimits(flags, env)).toEqual({ stallMs, deadlineMs: fixed });
  });

  it.each([["0"], ["-1"], ["soon"], ["Infinity"]])("refuses %s seconds (exit 2)", (value) => {
    expect(() => resolvePullLimits({ deadline: value }, {})).toThrow(
      /--deadline .*: not a number of seconds/,
    );
  });

  it("derives a deadline from the size, or from the bytes received when no size was announced", () => {
    const limits = { stallMs: 60_000, deadlineMs: undefined };
    expect(deadlineMs(limits, 75 * 1024 ** 2, 0)).toBe((300 + 768) * 1000);
    expect(deadlineMs(limits, undefined, 1024 * 1024)).toBe((300 + 10.24) * 1000);
    expect(deadlineMs({ ...limits, deadlineMs: 2000 }, 75 * 1024 ** 2, 0)).toBe(2000);
    expect(describeDeadline(limits, 4700)).toBe("5 min plus 1 s per 100 KB of its 4.6 KB");
    expect(describeDeadline(limits, undefined)).toMatch(/received, its size not announced/);
  });
});
