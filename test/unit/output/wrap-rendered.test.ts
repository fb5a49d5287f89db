import { describe, expect, it } from "vitest";
import { wrapRendered } from "../../../src/output/markdown.js";
import { measureColumns } from "../../../src/output/text-width.js";

const ITEM =
  "  *  Apnea-hypopnea index (AHI) or respiratory disturbance index (RDI) of 15 or more events per hour";

describe("wrapRendered: criteria text fitted to the terminal at word boundaries", () => {
  it.each([30, 40, 60, 79])("a list item at %i columns hangs under its text", (width) => {
    const lines = wrapRendered(ITEM, width).split("\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(measureColumns(line)).toBeLessThanOrEqual(width);
    expect(lines[0]).toMatch(/^ {2}\* {2}Apnea/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {5}\S/);
    // Every word kept whole, in order.
    expect(lines.map((l) => l.trim()).join(" ")).toBe(ITEM.trim());
  });

  it.each([
    ["a short line", "  *  short", 40, "  *  short"],
    ["a numbered item", "  1. one two three four", 15, "  1. one two\n     three four"],
    ["a paragraph", "alpha beta gamma delta", 11, "alpha beta\ngamma delta"],
    [
      "a table row is left alone",
      "│ a │ " + "b ".repeat(30) + "│",
      20,
      "│ a │ " + "b ".repeat(30) + "│",
    ],
  ])("%s", (_name, text, width, out) => {
    expect(wrapRendered(text, width)).toBe(out);
  });

  it("colour codes take no columns and the indent counts only what shows", () => {
    const red = (s: string) => `\u001b[31m${s}\u001b[39m`;
    const line = `  * \u001b[0m${red("one two three four five six")}\u001b[0m`;
    const lines = wrapRendered(line, 16).split("\n");
    // eslint-disable-next-line no-control-regex
    const sgr = /\u001b\[[0-9;]*m/g;
    for (const l of lines) expect(measureColumns(l.replace(sgr, ""))).toBeLessThanOrEqual(16);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {4}\S/);
  });
});
