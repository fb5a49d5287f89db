import { Chalk } from "chalk";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { renderTable, wrapText } from "../../../src/output/table.js";

const io = (columns: number) => ({ columns, chalk: new Chalk({ level: 0 }) });
const widest = (text: string) => Math.max(...text.split("\n").map((l) => stringWidth(l)));

describe("wrapText counts terminal columns (wide characters take 2)", () => {
  it.each([
    { text: "理学療法の保険適用方針", width: 8, expected: "理学療法\nの保険適\n用方針" },
    { text: "ab 理学 cd", width: 6, expected: "ab\n理学\ncd" },
    { text: "🏥💊 Health", width: 4, expected: "🏥💊\nHeal\nth" },
    { text: "jp/理学療法/2025-02-01", width: 12, expected: "jp/理学療法/\n2025-02-01" },
    { text: "e\u0301te\u0301", width: 2, expected: "e\u0301t\ne\u0301" },
  ])("$text in $width", ({ text, width, expected }) => {
    const out = wrapText(text, width);
    expect(out).toBe(expected);
    expect(widest(out)).toBeLessThanOrEqual(width);
    expect(out.replace(/\n/g, "").replace(/ /g, "")).toBe(text.replace(/ /g, ""));
  });
});

describe("renderTable", () => {
  const rows = [{ id: "jp/理学療法/2025-02-01", title: "理学療法の保険適用方針 🏥💊", n: "A\tB" }];
  const columns = [
    { header: "ID", value: (r: (typeof rows)[0]) => r.id, flex: true },
    { header: "TITLE", value: (r: (typeof rows)[0]) => r.title, flex: true },
    { header: "N", value: (r: (typeof rows)[0]) => r.n },
  ];

  it.each([100, 40, 30])("at %i columns: nothing cut, nothing wider than the terminal", (cols) => {
    const out = renderTable(columns, rows, io(cols));
    expect(out).not.toContain("…");
    expect(widest(out)).toBeLessThanOrEqual(cols);
    for (const ch of ["理", "療", "法", "適", "🏥", "💊", "2025-02-01"]) expect(out).toContain(ch);
  });

  it("tabs from the data become spaces (they would break the alignment)", () => {
    const out = renderTable(columns, rows, io(100));
    expect(out).not.toContain("\t");
    expect(out).toContain("A B");
  });
});

describe("renderTable over many rows", () => {
  it("prints one aligned table across its internal blocks of rows", () => {
    const rows = Array.from({ length: 1234 }, (_, i) => ({ id: `p/${i}`, n: String(i % 7) }));
    const columns = [
      { header: "ID", value: (r: (typeof rows)[0]) => r.id },
      { header: "N", value: (r: (typeof rows)[0]) => r.n },
    ];
    const out = renderTable(columns, rows, io(100)).split("\n");
    const expected = [["ID", "N"], ...rows.map((r) => [r.id, r.n])].map(
      ([id, n]) => `${id!.padEnd(6)}  ${n}`,
    );
    expect(out).toEqual(expected);
  });
});

describe("renderTable reads each cell once", () => {
  it.each([120, 30])("at %i columns (side by side, or stacked under the ids)", (cols) => {
    const reads = new Map<string, number>();
    const count = (key: string, text: string) => {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return text;
    };
    const rows = [{ id: "a/very/long/policy/id/2020-01-01" }, { id: "b/2" }];
    const out = renderTable(
      [
        { header: "ID", value: (r) => count(`id ${r.id}`, r.id), nowrap: true },
        { header: "TITLE", value: (r) => count(`title ${r.id}`, "Knee brace"), flex: true },
        { header: "N", value: (r) => count(`n ${r.id}`, "1") },
      ],
      rows,
      io(cols),
    );
    expect(out).toContain("Knee brace");
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    expect(reads.size).toBe(6);
  });
});
