// `npm run bench mcd`: imports a generated MCD export of the published size (431,120 covered
// ICD-10-CM links and the rest in proportion, test/helpers/mcd-scale.ts) with the built CLI,
// and reports wall time and peak RSS against the targets (< 60 s, < 500 MB), then the
// one-shot search on the result.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  BIN,
  OUT,
  ROOT,
  fmt,
  info,
  interleave,
  mb,
  median,
  printTable,
  runTimed,
  verdict,
} from "./lib.mjs";

const RUNS = Number(process.env.BENCH_MCD_RUNS ?? 3);
const DIR = path.join(OUT, "mcd");
const GENERATOR = ["mcd-scale.ts", "mcd-export.ts"].map((f) =>
  path.join(ROOT, "test", "helpers", f),
);

/**
 * Writes the export once (and again when its generator changed) into `dir`, at `factor` of the
 * published size; returns the import's args.
 */
export function ensureExport(dir = DIR, factor = 1) {
  const zip = path.join(dir, "all_data.zip");
  const newest = Math.max(...GENERATOR.map((f) => statSync(f).mtimeMs));
  if (!existsSync(zip) || statSync(zip).mtimeMs < newest) {
    console.log(`generating the export${factor === 1 ? "" : ` at factor ${factor}`} (once) ...`);
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", GENERATOR[0], dir, ...(factor === 1 ? [] : [String(factor)])],
      { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
    );
    if (r.status !== 0) throw new Error("generating the MCD export failed");
  }
  return [
    zip,
    "--icd10cm",
    path.join(dir, "icd10cm_order_2026.txt"),
    "--hcpcs",
    path.join(dir, "HCPC2026_JAN_ANWEB.txt"),
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
  // The snapshot sink (the target's) needs node:sqlite; the JSON sink runs on every Node.
  const sqlite = typeof process.getBuiltinModule === "function" && !!safeSqlite();
  const outputs = [
    ...(sqlite ? [["snapshot sink", path.join(DIR, "medicare.db")]] : []),
    ["JSON sink", path.join(DIR, "medicare.json")],
  ];
  const rows = [];
  const results = new Map();
  for (const [sink, out] of outputs) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await runTimed(
        process.execPath,
        [BIN, "data", "import", "mcd", ...args, "-o", out, "--force"],
        { rss: true },
      );
      if (r.code !== 0) throw new Error(`import failed:\n${r.stderr}`);
      runs.push(r);
      if (i === 0 && sink === outputs[0][0])
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
    results.set(sink, { ms, rss });
    rows.push([`coverage data import mcd (${sink})`, fmt(ms), mb(rss)]);
  }
  // The one-shot search on each result, against node -e 0 of the same Node, interleaved.
  const search = ["search", "--code", "ICD10CM:A00.00", "--state", "NF", "--json"];
  const cases = [
    { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
    ...outputs.map(([sink, out]) => ({
      name: sink,
      cmd: process.execPath,
      args: [BIN, "--local", "--data", out, ...search],
    })),
  ];
  const timed = await interleave(cases, 5, { rss: true });
  const base = median(timed.get("node -e 0").ms);
  for (const [sink, out] of outputs) {
    const t = timed.get(sink);
    rows.push([
      `one-shot search on the result (${sink}, ${(statSync(out).size / 1e6).toFixed(0)} MB)`,
      `${fmt(median(t.ms))} (${fmt(median(t.ms) / base, 2)}x node -e 0)`,
      mb(Math.max(...t.rss)),
    ]);
  }
  printTable(["case", "median ms", "peak RSS"], rows);
  const main = results.get(outputs[0][0]);
  verdict(
    `MCD import of the published size < 60 s (${outputs[0][0]})`,
    main.ms < 60_000,
    `${fmt(main.ms / 1000, 1)} s`,
  );
  if (sqlite) {
    const snap = results.get("snapshot sink");
    verdict("MCD import peak RSS < 500 MB (snapshot sink)", snap.rss < 500 * 1024, mb(snap.rss));
    const t = timed.get("snapshot sink");
    verdict(
      "one-shot search on the imported snapshot <= 2.0x node -e 0",
      median(t.ms) / base <= 2.0,
      `${fmt(median(t.ms) / base, 2)}x`,
    );
  } else info("MCD import into a snapshot", "skipped: node:sqlite needs Node.js 22.13 or newer");
}

function safeSqlite() {
  try {
    return process.getBuiltinModule("node:sqlite");
  } catch {
    return undefined;
  }
}
