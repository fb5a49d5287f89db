#!/usr/bin/env node
// Hostile MCD exports, measured: wall time, exit code and peak RSS (GNU time) of the built CLI's
// `data import mcd` on exports made here from the sample export (test/helpers/mcd-sample.ts):
//   - an 800 MB `lcd_x_hcpc_code.csv` of rows for one LCD (a 40 MB-class zip: the code-list bomb)
//   - the same spread over 16 LCDs (each under any per-document limit)
//   - a 200 MB `lcd.csv` that is one line with no end (no header), zipped and in a folder
//   - a 50 MB `indication` field in one LCD (a large legitimate field)
//
//   node bench/mcd-hostile.mjs [--keep]      (Node 22.13+ on PATH for the .db output)
//
// Figures go to docs/performance.md ("MCD import: hostile exports"); nothing here is asserted.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";
import { BIN, OUT, ROOT, mb, printTable, runTimed } from "./lib.mjs";

const DIR = path.join(OUT, "mcd-hostile");

/** The sample export as folders (once), through the test helper (TypeScript, run by tsx). */
function sampleFolder() {
  const root = path.join(DIR, "sample");
  if (existsSync(path.join(root, "all_lcd"))) return root;
  mkdirSync(DIR, { recursive: true });
  const script = `import { writeMcdExport } from "./test/helpers/mcd-export.ts";
import { sampleTables } from "./test/helpers/mcd-sample.ts";
await writeMcdExport(${JSON.stringify(root)}, sampleTables(), "folders");`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error("writing the sample export failed");
  return root;
}

/** A copy of the sample export with one table's file replaced by a stream, as one zip. */
async function exportWith(name, table, stream) {
  const root = sampleFolder();
  const file = path.join(DIR, `${name}.zip`);
  const zip = new yazl.ZipFile();
  for (const kind of ["all_lcd", "all_article", "ncd"]) {
    const folder = path.join(root, kind, `${kind}_csv`);
    if (!existsSync(folder)) continue;
    for (const csv of spawnSync("ls", [folder], { encoding: "utf8" })
      .stdout.split("\n")
      .filter(Boolean))
      if (csv !== table) zip.addFile(path.join(folder, csv), `${kind}/${csv}`);
  }
  zip.addReadStream(stream, `all_lcd/${table}`);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
  return file;
}

/** `total` bytes made by `line(i)`, streamed (never held whole). */
function lines(header, line, total) {
  let written = 0;
  let i = 0;
  return Readable.from(
    (function* () {
      yield Buffer.from(header);
      while (written < total) {
        const chunk = [];
        for (let k = 0; k < 10_000; k++) chunk.push(line(i++));
        const buf = Buffer.from(chunk.join(""));
        written += buf.length;
        yield buf;
      }
    })(),
  );
}

const header = (table) =>
  readFileSync(path.join(sampleFolder(), "all_lcd", "all_lcd_csv", table), "latin1").split(
    "\r\n",
  )[0] + "\r\n";

async function main() {
  const cases = [];
  const bomb = await exportWith(
    "codelist-bomb",
    "lcd_x_hcpc_code.csv",
    lines(
      header("lcd_x_hcpc_code.csv"),
      // The sample's header has two extra columns CMS may add; fields are matched by name.
      (i) =>
        `39001,5,cms,E${String(i % 10_000).padStart(4, "0")},1,1,,2024-01-01 00:00:00,"A supply or service of the catalogue, described",short,x\r\n`,
      800 << 20,
    ),
  );
  cases.push({
    name: "800 MB code list for one LCD, -o .db",
    args: [bomb, "-o", path.join(DIR, "bomb.db")],
  });
  cases.push({
    name: "800 MB code list for one LCD, -o .json",
    args: [bomb, "-o", path.join(DIR, "bomb.json")],
  });
  const spread = await exportWith(
    "codelist-spread",
    "lcd_x_hcpc_code.csv",
    lines(
      header("lcd_x_hcpc_code.csv"),
      (i) =>
        `${39001 + (i % 16)},5,cms,E${String(i % 10_000).padStart(4, "0")},1,1,,2024-01-01 00:00:00,"A supply or service of the catalogue, described",short,x\r\n`,
      800 << 20,
    ),
  );
  cases.push({
    name: "800 MB code list over 16 LCDs, -o .db",
    args: [spread, "-o", path.join(DIR, "spread.db")],
  });
  const noHeader = await exportWith(
    "no-header",
    "lcd.csv",
    Readable.from(
      (function* () {
        for (let i = 0; i < 200; i++) yield Buffer.alloc(1 << 20, "0");
      })(),
    ),
  );
  cases.push({
    name: "200 MB lcd.csv with no line end (zip)",
    args: [noHeader, "-o", path.join(DIR, "noheader.db")],
  });
  // In a folder: no compression ratio to give it away, only the header's limit.
  const noHeaderDir = path.join(DIR, "no-header");
  rmSync(noHeaderDir, { recursive: true, force: true });
  cpSync(sampleFolder(), noHeaderDir, { recursive: true });
  writeFileSync(
    path.join(noHeaderDir, "all_lcd", "all_lcd_csv", "lcd.csv"),
    Buffer.alloc(200 << 20, "0"),
  );
  cases.push({
    name: "200 MB lcd.csv with no line end (folder)",
    args: [noHeaderDir, "-o", path.join(DIR, "noheader-dir.db")],
  });
  const lcd = readFileSync(
    path.join(sampleFolder(), "all_lcd", "all_lcd_csv", "lcd.csv"),
    "latin1",
  );
  const big = `<p>${"Coverage indication text with words, ".repeat((50 << 20) / 38)}</p>`;
  // The first LCD row's indication (the ninth column, and the first quoted HTML field) replaced.
  const at = lcd.indexOf('"<p>');
  const end = lcd.indexOf('</p>"', at) + 5;
  const bigField = await exportWith(
    "big-field",
    "lcd.csv",
    Readable.from([Buffer.from(lcd.slice(0, at) + `"${big}"` + lcd.slice(end), "latin1")]),
  );
  cases.push({
    name: "50 MB indication field, -o .db",
    args: [bigField, "-o", path.join(DIR, "bigfield.db")],
  });

  const rows = [];
  for (const c of cases) {
    for (const out of [c.args.at(-1), c.args.at(-1).replace(/\.(db|json)$/, ".files")])
      rmSync(out, { recursive: true, force: true });
    const r = await runTimed(process.execPath, [BIN, "data", "import", "mcd", ...c.args], {
      rss: true,
    });
    const said = r.stderr.split("\n").find((l) => l.startsWith("error:")) ?? "";
    rows.push([
      c.name,
      `exit ${r.code}`,
      `${(r.ms / 1000).toFixed(1)} s`,
      mb(r.maxRssKb),
      said.slice(0, 110),
    ]);
  }
  console.log(
    `Node ${process.version}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} (1, 5, 15 min) at the end`,
  );
  printTable(["case", "exit", "wall", "peak RSS", "message"], rows);
  if (!process.argv.includes("--keep")) rmSync(DIR, { recursive: true, force: true });
}

await main();
