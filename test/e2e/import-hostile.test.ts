// `data import mcd` on hostile exports (mcd-import.md, "Hostile input"), made here and never
// committed: each is refused with exit 2 naming what is wrong, and leaves nothing behind. Run in
// the test's own process.
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { runInProcess } from "../helpers/run-cli.js";
import { writeMcdExport } from "../helpers/mcd-export.js";
import { sampleTables } from "../helpers/mcd-sample.js";

const run = (args: string[]) => runInProcess(args);

const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-hostile-"));
const fresh = () => mkdtempSync(path.join(dir, "out-"));
let folder = "";
let lcdCsv = "";

/** The sample export as folders, with lcd.csv replaced by `bytes`. */
async function withLcd(bytes: Buffer | string): Promise<string> {
  const d = mkdtempSync(path.join(dir, "export-"));
  const [root] = await writeMcdExport(d, sampleTables(), "folders");
  writeFileSync(path.join(root!, "all_lcd", "all_lcd_csv", "lcd.csv"), bytes);
  return root!;
}

async function zipOf(entries: Array<[string, Buffer]>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  zip.end();
  const file = path.join(mkdtempSync(path.join(dir, "zip-")), "export.zip");
  await pipeline(zip.outputStream, createWriteStream(file));
  return file;
}

async function refused(inputs: string[], extra: string[] = []) {
  const out = fresh();
  const r = await run([
    "data",
    "import",
    "mcd",
    ...inputs,
    "-o",
    path.join(out, "m.json"),
    ...extra,
  ]);
  expect(r.exitCode, r.stderr).toBe(2);
  expect(r.stderr).not.toContain("report it");
  expect(readdirSync(out)).toEqual([]);
  return r.stderr;
}

beforeAll(async () => {
  [folder] = (await writeMcdExport(path.join(dir, "sample"), sampleTables(), "folders")) as [
    string,
  ];
  lcdCsv = readFileSync(path.join(folder, "all_lcd", "all_lcd_csv", "lcd.csv"), "latin1");
}, 60_000);

describe("data import mcd refuses hostile exports (exit 2, nothing left)", () => {
  it("a missing lcd.csv while the LCDs' other tables are there", async () => {
    const { "lcd.csv": _lcd, ...rest } = sampleTables();
    const d = mkdtempSync(path.join(dir, "nolcd-"));
    const inputs = await writeMcdExport(d, rest, "all_data");
    expect(await refused(inputs)).toMatch(/lcd\.csv is missing .*lcd_x_/);
  });

  it("an lcd.csv whose first line never ends is no CSV header", async () => {
    const stderr = await refused([await withLcd(Buffer.alloc(2 << 20, "0"))]);
    expect(stderr).toContain("lcd.csv: the first line is longer than 64 KB");
  });

  it("a quote opened and never closed names the file and the line where it opened", async () => {
    const header = lcdCsv.slice(0, lcdCsv.indexOf("\r\n"));
    const bytes = `${header}\r\n39001,5,"Title that never ends\r\n39002,1,more\r\n39003,1,rows\r\n`;
    const stderr = await refused([await withLcd(bytes)]);
    expect(stderr).toContain("lcd.csv: the quote that opens a field on line 2 is never closed");
  });

  it("a limit the lookups alone pass refuses at the first table past it", async () => {
    const stderr = await refused([folder], ["--max-links", "3"]);
    expect(stderr).toContain("the export keeps more in memory than --max-links allows (3 code");
    expect(stderr).toContain("--max-links N");
  });

  it("code links spread over many documents count together", async () => {
    // Five links each for many documents (none in the export): each is small, together not.
    const d = mkdtempSync(path.join(dir, "spread-"));
    const [root] = await writeMcdExport(d, sampleTables(), "folders");
    const file = path.join(root!, "all_lcd", "all_lcd_csv", "lcd_x_hcpc_code.csv");
    const header = readFileSync(file, "latin1").split("\r\n")[0]!;
    const rows = Array.from(
      { length: 400 },
      (_, i) => `${50000 + Math.floor(i / 5)},1,x,E0${100 + i},,1,,,,,`,
    );
    writeFileSync(file, `${header}\r\n${rows.join("\r\n")}\r\n`);
    const stderr = await refused([root!], ["--max-links", "300"]);
    expect(stderr).toContain("more than 300 code links (LCD L50000, version 1, has 5 of them)");
  });

  it("rows kept for the whole import (contractor links) count against --max-links too", async () => {
    const d = mkdtempSync(path.join(dir, "contractors-"));
    const [root] = await writeMcdExport(d, sampleTables(), "folders");
    const file = path.join(root!, "all_lcd", "all_lcd_csv", "lcd_x_contractor.csv");
    const [header, first] = readFileSync(file, "latin1").split(/\r?\n/) as [string, string];
    const rest = first.split(",").slice(1).join(",");
    const rows = Array.from({ length: 400 }, (_, i) => `${70000 + i},${rest}`);
    writeFileSync(file, `${header}\r\n${rows.join("\r\n")}\r\n`);
    const stderr = await refused([root!], ["--max-links", "300"]);
    expect(stderr).toContain(
      "lcd_x_contractor.csv: the export keeps more in memory than --max-links allows",
    );
    expect(stderr).toContain("--max-links N");
  });

  it.each(["../../evil/lcd.csv", "/etc/evil/lcd.csv"])(
    "a zip entry named %s (absolute or climbing)",
    async (name) => {
      // yazl refuses such names: write a harmless one of the same length, then rename it in
      // the zip's bytes (local header and central directory; no checksum covers names).
      const harmless = name.replace(/[./]/g, (c, i: number) => (i < 6 ? "x" : c));
      const zip = await zipOf([
        ["ncd_trkg.csv", Buffer.from("x\r\n")],
        [harmless, Buffer.from("lcd_id\r\n1\r\n")],
      ]);
      const bytes = readFileSync(zip);
      const from = Buffer.from(harmless);
      for (let at = bytes.indexOf(from); at !== -1; at = bytes.indexOf(from, at + 1))
        Buffer.from(name).copy(bytes, at);
      writeFileSync(zip, bytes);
      const stderr = await refused([zip]);
      expect(stderr).toContain(name);
      expect(stderr).toContain("absolute or climbing");
    },
  );

  it("a zip entry whose compression ratio is a bomb's, before it is read", async () => {
    const zip = await zipOf([["lcd.csv", Buffer.alloc(80 << 20, "0")]]);
    const stderr = await refused([zip]);
    expect(stderr).toContain("lcd.csv: the zip entry expands");
    expect(stderr).toContain("zip bomb");
  });
});

describe("data import mcd bounds what one field costs (findings/reliability.md 2h)", () => {
  it("a 17 MB indication is a malformed row naming the line, the column and the 16 MB limit; the rest is imported", async () => {
    // The first LCD's indication (its first quoted HTML field) made 17 MB: past MAX_FIELD_CHARS,
    // so it is cut as it is read, never held (a 50 MB one peaked at 670-780 MB before).
    const at = lcdCsv.indexOf('"<p>');
    const end = lcdCsv.indexOf('</p>"', at) + 5;
    const line = lcdCsv.slice(0, at).split("\n").length;
    const big = `"<p>${"x".repeat(17 << 20)}</p>"`;
    const root = await withLcd(
      Buffer.from(lcdCsv.slice(0, at) + big + lcdCsv.slice(end), "latin1"),
    );
    const out = path.join(fresh(), "m.json");
    const r = await run(["data", "import", "mcd", root, "-o", out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `lcd.csv line ${line}: the field 'indication' is longer than 16 MB, the largest a field may be`,
    );
    const imported = JSON.parse(readFileSync(out, "utf8")) as { policies: unknown[] };
    expect(imported.policies.length).toBeGreaterThan(0);
  });
});

describe("data import mcd on a damaged zip (findings/reliability.md 2f)", () => {
  it.each([
    ["a damaged local header", 0],
    ["damaged compressed bytes", 200],
  ])("%s: exit 2 naming the entry and 'damaged', never the internal-error path", async (_, at) => {
    // The sample export, lcd.csv first (made long, so its bytes at `at` are compressed data).
    const tables = readdirSync(path.join(folder, "all_lcd", "all_lcd_csv"));
    const zip = await zipOf([
      ["lcd.csv", Buffer.from(lcdCsv.repeat(20), "latin1")],
      ...tables
        .filter((t) => t !== "lcd.csv")
        .map((t): [string, Buffer] => [
          t,
          readFileSync(path.join(folder, "all_lcd", "all_lcd_csv", t)),
        ]),
    ]);
    const bytes = readFileSync(zip);
    for (let i = at; i < at + 8; i++) bytes[i] = bytes[i]! ^ 0x55;
    writeFileSync(zip, bytes);
    const stderr = await refused([zip]);
    expect(stderr).toMatch(/export\.zip > [a-z_]+\.csv: the zip is damaged \(/);
  });
});
