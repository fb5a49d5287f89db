import { describe, expect, it } from "vitest";
import { markupToText } from "../../../src/domain/plain-text.js";
import { BOM, guardCell, toCsv } from "../../../src/output/csv.js";

describe("CSV cells for spreadsheets", () => {
  it.each([
    ["=HYPERLINK(1)", "'=HYPERLINK(1)"],
    ["+1", "'+1"],
    ["-2", "'-2"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", "'\r=1"],
    ["a=b", "a=b"],
    ["2026-01-01", "2026-01-01"],
    // Terminal controls go, as in tables; line ends and tabs stay.
    ["X\u001b[31mRED\u001b[0m", "XRED"],
    ["a\u0007b\u0085c", "abc"],
    ["line\r\nnext\ttab", "line\r\nnext\ttab"],
    // A formula hidden behind a control sequence is still guarded.
    ["\u001b[0m=1+1", "'=1+1"],
  ])("%j -> %j", (cell, out) => {
    expect(guardCell(cell)).toBe(out);
  });
  it("--bom: the byte-order mark before the header only", () => {
    const rows = [{ a: "1" }];
    expect(toCsv(rows, ["a"], true, true).text).toBe(`${BOM}a\r\n1\r\n`);
    expect(toCsv(rows, ["a"], true, false).text).toBe("1\r\n");
    expect(toCsv(rows, ["a"], false, true).text).toBe("a\r\n1\r\n");
  });
});

describe("markupToText", () => {
  it.each([
    [
      "<p>Covers <b>therapeutic exercise</b>, when a plan exists.</p><p>Next.</p>",
      "Covers therapeutic exercise, when a plan exists. Next.",
    ],
    ["a<br/>b &amp; c &#39;d&#x27;", "a b & c 'd'"],
    ["**Bold** and [a link](https://x.org) <!-- note -->", "Bold and a link"],
    ["age < 18 and > 12", "age < 18 and > 12"],
    ["plain", "plain"],
  ])("%j -> %j", (html, text) => {
    expect(markupToText(html)).toBe(text);
  });
});
