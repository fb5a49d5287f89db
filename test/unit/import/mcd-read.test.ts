import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { readHcpcsAnweb, readIcd10cmOrder } from "../../../src/import/mcd/code-sets.js";
import { readTable, type BadRow } from "../../../src/import/mcd/csv.js";
import {
  htmlToMarkdown,
  htmlToPlainText,
  htmlToPlainTextPrefix,
} from "../../../src/import/mcd/html.js";
import { htmlToMarkdownInPieces } from "../../../src/import/mcd/html-pieces.js";

const source = (bytes: Buffer | string) => ({
  name: "t.csv",
  label: "t.csv",
  open: async () => Readable.from([Buffer.from(bytes)]),
});

async function rows(bytes: Buffer | string, required: string[] = []) {
  const got: Array<Record<string, string | number>> = [];
  const bad: BadRow[] = [];
  await readTable(
    source(bytes),
    required,
    (row) => {
      got.push({ id: row.get("id"), text: row.get("text"), line: row.line });
    },
    (b) => bad.push(b),
  );
  return { got, bad };
}

describe("readTable", () => {
  it("decodes Windows-1252: every byte 0x80-0x9F", async () => {
    const high = [0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e];
    high.push(0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9e, 0x9f);
    const bytes = Buffer.concat([
      Buffer.from("id,text\r\n1,"),
      Buffer.from(high),
      Buffer.from("\r\n"),
    ]);
    const { got } = await rows(bytes);
    expect(got[0]!.text).toBe("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
  });

  it("matches columns by name in any case, with quoted newlines, and numbers lines as the file shows them", async () => {
    const csv = 'EXTRA,Text,ID\r\nx,"two\r\nlines, ""quoted""",1\r\nx,plain,2\r\n';
    const { got } = await rows(csv, ["id", "text"]);
    expect(got).toEqual([
      { id: "1", text: 'two\r\nlines, "quoted"', line: 2 },
      { id: "2", text: "plain", line: 4 },
    ]);
  });

  it("ignores a UTF-8 byte-order mark before the header", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("ID,text\n1,a\n")]);
    const { got } = await rows(bytes, ["id"]);
    expect(got).toEqual([{ id: "1", text: "a", line: 2 }]);
  });

  it("reads fields of 10 MB", async () => {
    const big = "y".repeat(10 * 1024 * 1024);
    const { got } = await rows(`id,text\n1,"${big}"\n`);
    expect((got[0]!.text as string).length).toBe(big.length);
  });

  it("a missing column names the file and column", async () => {
    await expect(rows("id,other\n1,2\n", ["id", "text"])).rejects.toThrow(
      "t.csv: no column 'text'",
    );
  });

  it("a row with the wrong number of fields is reported with its line and skipped", async () => {
    const { got, bad } = await rows("id,text\n1,a\n2,b,c\n3,d\n");
    expect(got.map((g) => g.id)).toEqual(["1", "3"]);
    expect(bad).toEqual([{ file: "t.csv", line: 3, reason: "3 fields where the header has 2" }]);
  });
});

describe("HTML fields", () => {
  it("become markdown with a maintained converter (lists, emphasis, headings)", () => {
    expect(htmlToMarkdown("<p>A <b>b</b></p><ul><li>x</li><li>y</li></ul><h2>H</h2>")).toBe(
      "A **b**\n\n-   x\n-   y\n\n## H",
    );
    expect(htmlToMarkdown("")).toBe("");
    expect(htmlToMarkdown("plain\r\ntext")).toBe("plain\ntext");
  });

  it.each([
    [
      "a simple table",
      "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>",
      ["| A   | B   |", "| --- | --- |", "| 1   | 2   |"],
    ],
    [
      // NCD 190.10's shape: a title cell spanning the columns, in a tbody of its own.
      "a header cell spanning every column",
      '<table><tbody><tr><th colspan="3">Title</th></tr></tbody><tbody><tr><td>a</td><td>b</td><td>c</td></tr></tbody></table>',
      ["| Title |     |     |", "| --- | --- | --- |", "| a   | b   | c   |"],
    ],
    [
      // NCD 240.1's shape: an assessment spanning the rows of its criteria.
      "a cell spanning rows keeps the next rows' cells in their columns",
      '<table><tr><th>A</th><th>B</th></tr><tr><td rowspan="2">x</td><td>1</td></tr><tr><td>2</td></tr><tr><td>y</td><td>3</td></tr></table>',
      ["| A   | B   |", "| --- | --- |", "| x   | 1   |", "|     | 2   |", "| y   | 3   |"],
    ],
    [
      "a last cell spanning rows",
      '<table><tr><th>A</th><th>B</th></tr><tr><td>a</td><td rowspan="3">z</td></tr><tr><td>b</td></tr></table>',
      ["| A   | B   |", "| --- | --- |", "| a   | z   |", "| b   |     |"],
    ],
    [
      "a body wider than its header: the header is filled out",
      "<table><tr><th>Title</th></tr><tr><td>1</td><td>2</td></tr></table>",
      ["| Title |     |", "| --- | --- |", "| 1   | 2   |"],
    ],
    [
      "a span ends with its section (thead, tbody), as in HTML",
      '<table><thead><tr><th rowspan="2">A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td><td>3</td></tr></tbody></table>',
      ["| A   | B   |     |", "| --- | --- | --- |", "| 1   | 2   | 3   |"],
    ],
    [
      "a rowspan of 0 runs to the end of its section",
      '<table><tr><th>A</th><th>B</th></tr><tr><td rowspan="0">x</td><td>1</td></tr><tr><td>2</td></tr></table>',
      ["| A   | B   |", "| --- | --- |", "| x   | 1   |", "|     | 2   |"],
    ],
    [
      "spans of nonsense size read as 1",
      '<table><tr><th colspan="0">A</th><th colspan="x">B</th></tr><tr><td rowspan="-1">1</td><td>2</td></tr></table>',
      ["| A   | B   |", "| --- | --- |", "| 1   | 2   |"],
    ],
  ])("tables become GFM tables whose divider spans the header: %s", (_name, html, lines) => {
    expect(htmlToMarkdown(html).split("\n")).toEqual(lines);
  });

  it("a table whose spans would multiply its cells is left as written, not laid out", () => {
    // 9 KB asking for a million cells: laid out, the converter would take minutes on it.
    const hostile =
      '<table><tr><td colspan="1000" rowspan="1000">x</td></tr>' +
      "<tr><td>y</td></tr>".repeat(999) +
      "</table>";
    const md = htmlToMarkdown(hostile);
    expect(md.length).toBeLessThan(20_000);
    expect(md).toContain("| y");
  });

  it.each([
    [
      "a <br> between items is no item",
      "<ol><li>a</li><br><li>b</li><br>\n<li>c</li></ol>",
      "1.  a\n2.  b\n3.  c",
    ],
    ["type a letters", '<ol type="a"><li>x</li><li>y</li></ol>', "a.  x\nb.  y"],
    ["type A, start", '<ol type="A" start="26"><li>x</li><li>y</li></ol>', "Z.  x\nAA.  y"],
    ["type i roman", '<ol type="i" start="3"><li>x</li><li>y</li></ol>', "iii.  x\niv.  y"],
    ["start honoured", '<ol start="7"><li>x</li><li>y</li></ol>', "7.  x\n8.  y"],
    ["value honoured", '<ol><li>x</li><li value="5">y</li><li>z</li></ol>', "1.  x\n5.  y\n6.  z"],
    [
      "nesting kept, the inner list lettered",
      '<ol><li>one<ol type="a"><li>x</li><li>y</li></ol></li><br><li>two</li></ol>',
      "1.  one\n    a.  x\n    b.  y\n2.  two",
    ],
    ["bullets stay bullets", "<ul><li>x</li><br><li>y</li></ul>", "-   x\n-   y"],
  ])("lists as the source renders them: %s", (_what, html, markdown) => {
    expect(htmlToMarkdown(html)).toBe(markdown);
  });

  it("a start of a billion, or of 30 digits, is a number as written", () => {
    expect(htmlToMarkdown('<ol start="1000000000"><li>a</li><li>b</li></ol>')).toBe(
      "1000000000.  a\n1000000001.  b",
    );
    expect(htmlToMarkdown(`<ol start="${"9".repeat(30)}"><li>a</li></ol>`)).toBe(
      `${"9".repeat(30)}.  a`,
    );
    expect(htmlToMarkdown('<ol type="i" start="1000000000"><li>a</li></ol>')).toBe(
      "1000000000.  a",
    );
  });

  it("a list nested ten thousand deep keeps every item's text, its depth capped", () => {
    const html = "<ol><li>x".repeat(10_000) + "</li></ol>".repeat(10_000);
    const md = htmlToMarkdown(html);
    expect(md.match(/x/g)).toHaveLength(10_000);
    // Indented 16 levels at most: some 70 characters a line, not 40,000.
    expect(Math.max(...md.split("\n").map((l) => l.length))).toBeLessThanOrEqual(4 * 16 + 8);
    const unclosed = htmlToMarkdown("<ul><li>y".repeat(10_000));
    expect(unclosed.match(/y/g)).toHaveLength(10_000);
  });

  it("an <ol> of a million <br>s between two items is two items", () => {
    const html = "<ol><li>a</li>" + "<br>".repeat(1_000_000) + "<li>b</li></ol>";
    expect(htmlToMarkdownInPieces(html)).toBe("1.  a\n2.  b");
  });

  it("become plain text, whitespace collapsed, entities decoded", () => {
    expect(htmlToPlainText("<p>One   <i>two</i></p><p>three &amp; four</p>")).toBe(
      "One two three & four",
    );
    expect(htmlToPlainTextPrefix(`<p>${"word ".repeat(5000)}</p>`, 300).length).toBeGreaterThan(
      300,
    );
  });
});

describe("code set files", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-codesets-"));

  it("the ICD-10-CM order file: code in columns 7-13, long description from column 78", async () => {
    const file = path.join(dir, "icd10cm_order_2026.txt");
    const line = (order: string, code: string, flag: string, short: string, long: string) =>
      `${order} ${code.padEnd(7)} ${flag} ${short.padEnd(60)} ${long}`;
    writeFileSync(
      file,
      [
        line("00001", "A00", "0", "Short A00", "Long description of A00"),
        line("00002", "A000", "1", "Short A000", "Long description of A00.0"),
      ].join("\r\n"),
    );
    expect(await readIcd10cmOrder(file)).toEqual([
      { code_system: "ICD10CM", code: "A00", description: "Long description of A00" },
      { code_system: "ICD10CM", code: "A00.0", description: "Long description of A00.0" },
    ]);
  });

  it.each([
    ["Windows-1252 (as CMS writes it)", (text: string) => iconv.encode(text, "win1252")],
    [
      "UTF-8 with a byte-order mark",
      (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    ],
  ])(
    "the HCPCS ANWEB file in %s: the first record's columns stay in place",
    async (name, encode) => {
      const file = path.join(dir, `HCPC2026_JAN_ANWEB_${name.length}.txt`);
      const long = "Oxygen concentrator \u2013 single delivery port";
      writeFileSync(file, encode(`E1390001003${long.padEnd(80)}short text\r\n`));
      expect(await readHcpcsAnweb(file)).toEqual([
        { code_system: "HCPCS", code: "E1390", description: long },
      ]);
    },
  );

  it("the HCPCS ANWEB file: record types 3/4 joined, 7/8 modifiers, CPT-shaped codes never taken", async () => {
    const file = path.join(dir, "HCPC2026_JAN_ANWEB.txt");
    const rec = (code: string, seq: string, type: string, text: string) =>
      `${code.padEnd(5)}${seq}${type}${text.padEnd(80)}short text`;
    writeFileSync(
      file,
      [
        rec("E0601", "00100", "3", "First line of the long"),
        rec("E0601", "00200", "4", "description, continued"),
        rec("97110", "00100", "3", "Never imported"),
        rec("KX", "00100", "7", "Modifier description"),
      ].join("\n"),
    );
    expect(await readHcpcsAnweb(file)).toEqual([
      {
        code_system: "HCPCS",
        code: "E0601",
        description: "First line of the long description, continued",
      },
      { code_system: "HCPCS_MODIFIER", code: "KX", description: "Modifier description" },
    ]);
  });
});
