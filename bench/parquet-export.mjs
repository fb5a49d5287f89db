// Part `parquet` of `npm run bench` (Node.js 22.13+): `data export --format parquet` of the
// 1M-link snapshot (target: under 30 s) and of a 250k-link one beside it, each with its peak
// RSS: memory that does not grow with the snapshot shows as the same peak at both sizes (a row
// group at a time is held, never a table).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  BIN,
  GNU_TIME,
  OUT,
  cleanEnv,
  fmt,
  info,
  mb,
  median,
  printTable,
  runTimed,
  skipWithoutSqlite,
  verdict,
} from "./lib.mjs";

const NODE = process.execPath;
const RUNS = Number(process.env.BENCH_PARQUET_RUNS ?? 3);

/** The snapshot of `json`, built unless newer than it. */
async function snapshotOf(json) {
  const db = json.replace(/\.json$/, ".db");
  if (existsSync(db) && statSync(db).mtimeMs > statSync(json).mtimeMs) return db;
  const r = await runTimed(NODE, [BIN, "data", "build", json, "-o", db, "--force"]);
  if (r.code !== 0) throw new Error(`data build ${json} exited ${r.code}:\n${r.stderr}`);
  return db;
}

/** One export of `db` into `out` under GNU time: wall and CPU seconds, peak RSS (KB). */
function timedExport(db, out) {
  rmSync(out, { recursive: true, force: true });
  const args = [BIN, "data", "export", db, "--format", "parquet", "-o", out];
  const stats = path.join(os.tmpdir(), `coverage-bench-time-${process.pid}`);
  const start = process.hrtime.bigint();
  const r = GNU_TIME
    ? spawnSync(GNU_TIME, ["-f", "%U %S %M", "-o", stats, NODE, ...args], {
        env: cleanEnv(),
        encoding: "utf8",
      })
    : spawnSync(NODE, args, { env: cleanEnv(), encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`data export ${db} exited ${r.status}:\n${r.stderr}`);
  if (!GNU_TIME) return { ms, cpu: NaN, rss: 0 };
  const [user, sys, rss] = readFileSync(stats, "utf8")
    .trim()
    .split("\n")
    .pop()
    .split(" ")
    .map(Number);
  rmSync(stats, { force: true });
  return { ms, cpu: (user + sys) * 1000, rss };
}

/**
 * Exports `db` RUNS times into a fresh folder: median wall and CPU time (CPU is what a loaded
 * machine does not inflate: the wall time there is mostly waiting for a core), highest peak RSS.
 */
function exportTimes(db) {
  const out = path.join(OUT, `${path.basename(db, ".db")}-parquet`);
  const runs = Array.from({ length: RUNS }, () => timedExport(db, out));
  return {
    ms: median(runs.map((r) => r.ms)),
    cpu: median(runs.map((r) => r.cpu)),
    rss: Math.max(...runs.map((r) => r.rss)),
  };
}

export async function parquetPart(ensureDataset) {
  console.log(`\n## Parquet export (\`data export --format parquet\`, median of ${RUNS})`);
  if (skipWithoutSqlite("parquet export")) return;
  const big = path.join(OUT, "big.json");
  const quarter = path.join(OUT, "quarter.json");
  ensureDataset(big, []);
  ensureDataset(quarter, ["--versions", "5000", "--links", "250000"]);
  const small = exportTimes(await snapshotOf(quarter));
  const large = exportTimes(await snapshotOf(big));
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  printTable(
    ["snapshot", "seconds", "CPU seconds", "peak RSS"],
    [
      ["250k links (quarter.db)", fmt(small.ms / 1000, 1), fmt(small.cpu / 1000, 1), mb(small.rss)],
      ["1M links (big.db)", fmt(large.ms / 1000, 1), fmt(large.cpu / 1000, 1), mb(large.rss)],
    ],
  );
  verdict(
    "1M-link snapshot exports as Parquet < 30 s",
    large.ms < 30_000,
    `${fmt(large.ms / 1000, 1)} s`,
  );
  info(
    "peak RSS, 1M links against 250k",
    `${mb(large.rss)} against ${mb(small.rss)} (${fmt(large.rss / small.rss, 2)}x for 4x the links)`,
  );
}
