import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesOf, narrowCounts, readCounts } from "../../../src/snapshot/counts.js";

describe("narrowCounts and readCounts (counts and lengths stored one, two or four bytes wide)", () => {
  it("read back what was stored, in the narrowest width that holds it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2 ** 8 - 1, 2 ** 16 - 1, 2 ** 31 - 1),
        fc.array(fc.nat(), { maxLength: 40 }),
        (max, raw) => {
          const values = raw.map((v) => v % (max + 1));
          const stored = narrowCounts(values);
          const top = Math.max(0, ...values);
          expect(stored.BYTES_PER_ELEMENT).toBe(top < 2 ** 8 ? 1 : top < 2 ** 16 ? 2 : 4);
          // As node:sqlite hands a blob back: a buffer of its own.
          const blob = new Uint8Array(bytesOf(stored));
          expect(Array.from(readCounts(blob, values.length))).toEqual(values);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a blob of another length than 1, 2 or 4 bytes per count is a damaged snapshot (exit 2)", () => {
    for (const blob of [new Uint8Array(6), new Uint8Array(12), null])
      expect(() => readCounts(blob, 4)).toThrow(
        expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/damaged/) }),
      );
    expect(Array.from(readCounts(null, 0))).toEqual([]);
  });
});
