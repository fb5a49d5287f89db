// `npm run bench mcd`: imports a generated MCD export of the published size (431,120 covered
// ICD-10-CM links and the rest in proportion, test/helpers/mcd-scale.ts) with the built CLI,
// and reports wall time and peak RSS against the targets (< 60 s, < 500 MB), then the
// one-shot search on the result.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, OUT, ROOT, fmt, info, mb, median, printTable, runTimed, verdict } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_MCD_RUNS ?? 3);
const DIR = path.join(OUT, "mcd");
const GENERATOR = ["mcd-scale.ts", "mcd-export.ts"].map((f) =>
  path.join(ROOT, "test", "helpers", f),
);

/** Writes the export once (and again when its generator changed); returns the import's args. */
function ensureExport() {
  const zip = path.join(DIR, "all_data.zip");
  const newest = Math.max(...GENERATOR.map((f) => statSync(f).mtimeMs));
  if (!existsSync(zip) || statSync(zip).mtimeMs < newest) {
    console.log("generating the export (once) ...");
    const r = spawnSync(process.execPath, ["--import", "tsx", GENERATOR[0], DIR], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (r.status !== 0) throw new Error("generating the MCD export failed");
  }
  return [
    zip,
    "--icd10cm",
    path.join(DIR, "icd10cm_order_2026.txt"),
    "--hcpcs",
    path.join(DIR, "HCPC2026_JAN_ANWEB.txt"),
  ];
}

/** The bench part: import time and peak RSS, then a search on the imported dataset. */
export async function mcdImport() {
  console.log(
    `\n## MCD import: a generated export of the published size (${RUNS} runs; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})`,
  );
  const args = ensureExport();
  const out = path.join(DIR, "medicare.json");
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runTimed(
      process.execPath,
      [BIN, "data", "import", "mcd", ...args, "-o", out, "--force"],
      { rss: true },
    );
    if (r.code !== 0) throw new Error(`import failed:\n${r.stderr}`);
    runs.push(r);
    if (i === 0)
      console.log(
        r.stderr
          .split("\n")
          .slice(0, 3)
          .map((l) => `  ${l}`)
          .join("\n"),
      );
  }
  const ms = median(runs.map((r) => r.ms));
  const rss = Math.max(...runs.map((r) => r.maxRssKb ?? 0));
  const search = await runTimed(
    process.execPath,
    [BIN, "--local", "--data", out, "search", "--code", "ICD10CM:A00.00", "--state", "NF"],
    { rss: true },
  );
  printTable(
    ["case", "median ms", "peak RSS"],
    [
      ["coverage data import mcd (JSON sink)", fmt(ms), mb(rss)],
      [
        `one-shot search on the result (${(statSync(out).size / 1e6).toFixed(0)} MB JSON)`,
        fmt(search.ms),
        mb(search.maxRssKb),
      ],
    ],
  );
  verdict("MCD import of the published size < 60 s", ms < 60_000, `${fmt(ms / 1000, 1)} s`);
  // The 500 MB target is for the snapshot sink; the JSON sink is measured until it lands.
  info("MCD import peak RSS with the JSON sink (target < 500 MB with the snapshot sink)", mb(rss));
}
