import { Chalk } from "chalk";
import Table from "cli-table3";
import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { drawPlainTable } from "../../../src/output/draw-table.js";
import { isOneColumnEach } from "../../../src/output/text-width.js";

const chalk = new Chalk({ level: 1 });
const EMPTY = Object.fromEntries(
  [
    "top",
    "top-mid",
    "top-left",
    "top-right",
    "bottom",
    "bottom-mid",
    "bottom-left",
    "bottom-right",
    "left",
    "left-mid",
    "mid",
    "mid-mid",
    "right",
    "right-mid",
  ].map((k) => [k, ""]),
);

/** What cli-table3 draws with the options renderTable gives it. */
function drawWithCliTable3(rows: string[][], widths: number[], gap: string): string[] {
  const [head = [], ...body] = rows;
  const table = new Table({
    head,
    chars: { ...EMPTY, middle: gap },
    colWidths: widths,
    wordWrap: false,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
  });
  table.push(...body);
  const out = table.toString();
  return out === "" ? [] : out.split("\n");
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[\d;]*m/g;

const STYLES = [
  (t: string) => t,
  (t: string) => chalk.bold(t),
  (t: string) => chalk.green(t),
  (t: string) => chalk.red.dim(t),
  (t: string) => chalk.bgBlue.underline(t),
  (t: string) => `\u001b[1m${t}`,
  (t: string) => `${t}\u001b[0m`,
];
const PIECES = [
  "a",
  "Z",
  " ",
  "-",
  "/",
  "é",
  "\u0301",
  "理",
  "学",
  "🏥",
  "\u{1f1fa}\u{1f1f8}",
  "…",
];
const text = fc
  .tuple(
    fc.array(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join("")),
      { minLength: 1, maxLength: 3 },
    ),
    fc.constantFrom(...STYLES),
  )
  .map(([lines, style]) => style(lines.join("\n")));

describe("drawPlainTable draws what cli-table3 draws", () => {
  it("for any cells, styles and widths (null exactly when cli-table3 would cut a line)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((n) =>
          fc.tuple(
            fc.array(fc.array(text, { minLength: n, maxLength: n }), {
              minLength: 1,
              maxLength: 5,
            }),
            fc.array(fc.integer({ min: 0, max: 6 }), { minLength: n, maxLength: n }),
            fc.constantFrom("  ", " ", ""),
          ),
        ),
        ([rows, slack, gap]) => {
          // Mostly wide enough (the usual case), sometimes a column or two too narrow.
          const widths = slack.map((s, x) => {
            const widest = Math.max(
              0,
              ...rows.flatMap((r) =>
                (r[x] ?? "").split("\n").map((l) => stringWidth(l.replace(SGR, ""))),
              ),
            );
            return Math.max(0, widest + s - 1);
          });
          const expected = drawWithCliTable3(rows, widths, gap);
          const drawn = drawPlainTable(rows, widths, gap);
          if (drawn === null) expect(expected.join("\n")).toContain("…");
          else expect(drawn).toEqual(expected);
          if (slack.every((s) => s > 0)) expect(drawn).not.toBeNull();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("a header and rows whose cells span several lines, coloured across them", () => {
    const rows = [
      [chalk.bold("ID"), chalk.bold("VERDICT")],
      ["a/1", chalk.red("does not\ncover")],
      [chalk.bold("b/2\nx"), ""],
    ];
    const widths = [3, 8];
    expect(drawPlainTable(rows, widths, "  ")).toEqual(drawWithCliTable3(rows, widths, "  "));
  });
});

describe("isOneColumnEach: text cut per UTF-16 unit, without a grapheme segmenter", () => {
  it("holds for each character it accepts: each is a cluster of its own", () => {
    const chars: string[] = [];
    for (let c = 0x20; c < 0x2100; c++) {
      const ch = String.fromCharCode(c);
      if (isOneColumnEach(ch)) chars.push(ch);
    }
    expect(chars.length).toBeGreaterThan(600);
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    // A character that joins a cluster (Extend, SpacingMark, ZWJ, Prepend) joins one beside
    // any other: beside a letter and beside itself.
    const merged: string[] = [];
    for (const c of chars)
      for (const pair of [`a${c}`, `${c}a`, c + c]) {
        let n = 0;
        for (const _ of segmenter.segment(pair)) n++;
        if (n !== 2) merged.push(pair);
      }
    expect(merged).toEqual([]);
  });

  it("does not hold for combining marks, wide or joined characters", () => {
    for (const t of ["e\u0301", "理", "🏥", "\u200d", "a\tb", "\u001b[1m"])
      expect(isOneColumnEach(t)).toBe(false);
  });
});
