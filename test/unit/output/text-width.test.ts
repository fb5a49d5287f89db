import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { measureColumns } from "../../../src/output/text-width.js";

// Pieces from every kind of text a cell can hold: the fast path's ranges and their neighbours.
const PIECES = [
  "a",
  "Z",
  "9",
  " ",
  "~",
  "/",
  "\u00a0",
  "\u00a8",
  "\u00a9",
  "\u00ad",
  "\u00ae",
  "\u00e9",
  "\u02ff",
  "\u0300",
  "\u0301",
  "\u0370",
  "\u2010",
  "\u2013",
  "\u2019",
  "\u201c",
  "\u2026",
  "\u2027",
  "\u2028",
  "\u203c",
  "\u2122",
  "\u2139",
  "\u231a",
  "\u3042",
  "\u4e2d",
  "\uff21",
  "\ufe0f",
  "\u200d",
  "\u{1f600}",
  "\u{1f1fa}\u{1f1f8}",
  "\u{1f468}\u200d\u{1f469}",
  "\t",
  "\u0007",
  "\u009b",
  "\u007f",
  "\u001b[1m",
  "\u001b[0m",
  "#\ufe0f\u20e3",
];

describe("measureColumns", () => {
  it("counts columns exactly as string-width does", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        expect(measureColumns(text)).toBe(stringWidth(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("and on any text at all", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (text) => {
        expect(measureColumns(text)).toBe(stringWidth(text));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["plain ASCII", "Physical therapy", 16],
    ["typeset punctuation", "Sleep apnea \u2013 \u201cCPAP\u201d\u2026", 21],
    ["Latin letters", "Re\u00e9valuation", 12],
    ["CJK", "\u4e2d\u6587", 4],
    ["an emoji", "ok \u{1f600}", 5],
    ["a combining mark", "e\u0301", 1],
  ])("%s", (_, text, columns) => {
    expect(measureColumns(text)).toBe(columns);
  });
});
