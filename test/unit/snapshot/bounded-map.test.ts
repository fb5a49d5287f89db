import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../../src/snapshot/bounded-map.js";

describe("BoundedMap: a server's caches start again rather than grow", () => {
  it("clears before an entry past the number of entries", () => {
    const m = new BoundedMap<string, number>(2, Number.POSITIVE_INFINITY);
    m.set("a", 1, 0);
    m.set("b", 2, 0);
    expect([m.get("a"), m.get("b")]).toEqual([1, 2]);
    m.set("c", 3, 0);
    expect([m.get("a"), m.get("b"), m.get("c")]).toEqual([undefined, undefined, 3]);
  });

  it("clears before an entry whose weight would pass the total", () => {
    const m = new BoundedMap<string, string>(100, 10);
    m.set("a", "x", 6);
    m.set("b", "y", 4);
    expect(m.get("a")).toBe("x");
    m.set("c", "z", 1);
    expect([m.get("a"), m.get("b"), m.get("c")]).toEqual([undefined, undefined, "z"]);
  });
});
