import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMIT, slicePage } from "../../../src/engine/paginate.js";
import { compareCaseInsensitive, compareCodePoints } from "../../../src/engine/compare.js";

describe("slicePage (rule Ordering: limit/offset cut the list, has_more when items remain)", () => {
  it.each([
    { n: 0, limit: undefined, offset: undefined, data: [], has_more: false },
    { n: 25, limit: undefined, offset: undefined, data: [0, DEFAULT_LIMIT - 1], has_more: true },
    { n: 20, limit: 20, offset: 0, data: [0, 19], has_more: false },
    { n: 21, limit: 20, offset: 0, data: [0, 19], has_more: true },
    { n: 21, limit: 20, offset: 20, data: [20, 20], has_more: false },
    { n: 5, limit: 1, offset: 10, data: [], has_more: false },
  ])("n=$n limit=$limit offset=$offset", ({ n, limit, offset, data, has_more }) => {
    const items = Array.from({ length: n }, (_, i) => i);
    const page = slicePage(items, limit, offset);
    expect(page.has_more).toBe(has_more);
    expect(page.data).toEqual(data.length ? items.slice(data[0], (data[1] ?? 0) + 1) : []);
    expect(page.limit).toBe(limit ?? DEFAULT_LIMIT);
    expect(page.offset).toBe(offset ?? 0);
  });

  it("walking pages by has_more yields every item exactly once, in order (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 250 }),
        fc.integer({ min: 1, max: 100 }),
        fc.nat({ max: 300 }),
        (items, limit, start) => {
          const seen: number[] = [];
          let offset = start;
          for (;;) {
            const page = slicePage(items, limit, offset);
            expect(page.data.length).toBeLessThanOrEqual(limit);
            expect(page.has_more).toBe(offset + page.data.length < items.length);
            seen.push(...page.data);
            if (!page.has_more) break;
            offset += page.data.length;
          }
          expect(seen).toEqual(items.slice(start));
        },
      ),
    );
  });
});

describe("compareCodePoints / compareCaseInsensitive", () => {
  it.each([
    ["a", "b", -1],
    ["B", "a", -1],
    ["a", "a", 0],
    ["ab", "a", 1],
    ["\uFFFF", "\u{10000}", -1],
    ["\u{1F600}", "\uE000", 1],
  ])("%j vs %j", (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });
  it.each([
    ["Alpha", "alpha", 0],
    ["alpha", "Beta", -1],
    ["BETA", "alpha", 1],
  ])("case-insensitive %j vs %j", (a, b, sign) => {
    expect(Math.sign(compareCaseInsensitive(a, b))).toBe(sign);
  });
});
