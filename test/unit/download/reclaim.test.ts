import { describe, expect, it } from "vitest";
import {
  exposeCollector,
  RECLAIM_EVERY,
  reclaimReadBuffers,
} from "../../../src/download/reclaim.js";

describe("reclaimReadBuffers", () => {
  it.each([
    { label: "below the interval", counts: [1, RECLAIM_EVERY - 1], calls: 0 },
    { label: "at the interval", counts: [RECLAIM_EVERY], calls: 1 },
    {
      label: "once per interval crossed",
      counts: [1, 2, 3, 4].map((k) => k * RECLAIM_EVERY),
      calls: 4,
    },
    // A chunk larger than the interval counts once, and the next interval starts after it.
    { label: "big chunks", counts: [3 * RECLAIM_EVERY, 3 * RECLAIM_EVERY + 10], calls: 1 },
  ])("collects $label", ({ counts, calls }) => {
    let made = 0;
    const reclaim = reclaimReadBuffers(RECLAIM_EVERY, () => (options) => {
      expect(options).toEqual({ type: "minor", execution: "sync" });
      made += 1;
    });
    for (const bytes of counts) reclaim(bytes);
    expect(made).toBe(calls);
  });

  it("is a no-op where V8 offers no collector", () => {
    expect(() => reclaimReadBuffers(1, () => null)(10)).not.toThrow();
  });

  it("asks for the collector only once a transfer reaches the interval", () => {
    let asked = 0;
    const reclaim = reclaimReadBuffers(RECLAIM_EVERY, () => {
      asked += 1;
      return () => undefined;
    });
    reclaim(RECLAIM_EVERY - 1);
    expect(asked).toBe(0);
    reclaim(RECLAIM_EVERY);
    expect(asked).toBe(1);
  });
});

describe("exposeCollector", () => {
  it("gets V8's gc without leaving it on this process's global", () => {
    const gc = exposeCollector();
    expect(typeof gc).toBe("function");
    expect(exposeCollector()).toBe(gc);
    expect("gc" in globalThis).toBe(false);
    // A real minor collection runs without throwing.
    gc?.({ type: "minor", execution: "sync" });
  });
});
