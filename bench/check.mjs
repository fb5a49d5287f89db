// Part `check` of `npm run bench` (Node.js 22.13+): `coverage check` on a snapshot of ~1M code
// links. 100,000 claim lines over 2,000 distinct (procedure, state, LOB, payer, date), checked
// in under 20 s (target), with peak RSS beside the same 2,000 combinations in 10,000 lines:
// memory follows the combinations, not the lines.
import { createWriteStream, existsSync, statSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { BIN, OUT, fmt, info, mb, procedureOf, rng, runTimed, verdict } from "./lib.mjs";

const NODE = process.execPath;
const LINES = Number(process.env.BENCH_CHECK_LINES ?? 100_000);
const COMBINATIONS = Number(process.env.BENCH_CHECK_COMBINATIONS ?? 2000);
const PROCEDURES = 300;

/** The i-th procedure of the generator's pool, as a claim line writes it. */
function procedureCode(i) {
  const { code_system, code } = procedureOf(i);
  return `${code_system}:${code}`;
}

const STATES = "CA NY TX FL MO IL PA OH GA NC MI NJ VA WA AZ MA TN IN WI MN".split(" ");
const LOBS = ["", "commercial", "medicare_part_b", "medicare_advantage", "medicaid"];
const DATES = ["2019-06-15", "2021-03-01", "2022-11-30", "2024-01-01", "2025-07-04"];
// Common and rare diagnoses of the generator's universe (E11.9, I10.0 and Z00.00 are in it).
const DIAGNOSES = ["E11.9", "I10.0", "Z00.00", "E11.65", "e119", "Z0000"];

/** A CSV of `lines` claim lines cycling through `combinations` distinct combinations. */
async function writeLines(file, lines, combinations) {
  const rand = rng(13);
  const int = (n) => Math.floor(rand() * n);
  const combos = new Set();
  while (combos.size < combinations)
    combos.add(
      [
        procedureCode(Math.floor(PROCEDURES * rand() ** 2)),
        STATES[int(STATES.length)],
        LOBS[int(LOBS.length)],
        DATES[int(DATES.length)],
      ].join(","),
    );
  const list = [...combos];
  const out = createWriteStream(file);
  out.write("procedure,state,lob,date,diagnosis\n");
  for (let i = 0; i < lines; i++) {
    const [procedure, state, lob, date] = list[i % list.length].split(",");
    const dx = Array.from({ length: 1 + int(3) }, () => DIAGNOSES[int(DIAGNOSES.length)]);
    if (!out.write(`${procedure},${state},${lob},${date},${dx.join(";")}\n`))
      await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

// A heap small enough that V8 collects as it goes: peak RSS then shows what the run keeps,
// where an uncapped run grows its heap lazily with the work done (a 10x run, ~1.9x RSS).
const CAPPED_HEAP_MB = 128;

async function runCheck(db, csv, heapMb) {
  const args = [
    ...(heapMb ? [`--max-old-space-size=${heapMb}`] : []),
    BIN,
    "--local",
    "--data",
    db,
    "-v",
    "check",
    "--input",
    csv,
    "--format",
    "ndjson",
  ];
  const r = await runTimed(NODE, args, { rss: true });
  if (r.code !== 0) throw new Error(`check exited ${r.code}:\n${r.stderr.slice(-2000)}`);
  const requests = /check: (\d+) filter requests? for (\d+) distinct/.exec(r.stderr);
  return { ...r, requests: requests?.[1], combinations: requests?.[2] };
}

/** The part: dataset and snapshot (made once), the lines, then the runs. */
export async function checkPart(ensureDataset) {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 13)) {
    info("check part", `skipped: snapshots need Node.js 22.13+ (this is ${process.version})`);
    return;
  }
  const json = path.join(OUT, "check.json");
  ensureDataset(json, ["--procedures", String(PROCEDURES), "--seed", "11"]);
  const db = path.join(OUT, "check.db");
  if (!existsSync(db) || statSync(db).mtimeMs < statSync(json).mtimeMs) {
    const b = await runTimed(NODE, [BIN, "data", "build", json, "-o", db, "--force"]);
    if (b.code !== 0) throw new Error(`data build exited ${b.code}:\n${b.stderr}`);
  }
  const big = path.join(OUT, `check-${LINES}.csv`);
  const small = path.join(OUT, `check-${LINES / 10}.csv`);
  await writeLines(big, LINES, COMBINATIONS);
  await writeLines(small, LINES / 10, COMBINATIONS);
  console.log(
    `\n## Claim checks: coverage check on ${path.relative(process.cwd(), db)} (~1M code links), ${COMBINATIONS} distinct combinations`,
  );
  const s = await runCheck(db, small);
  const l = await runCheck(db, big);
  for (const [n, r] of [
    [LINES / 10, s],
    [LINES, l],
  ])
    console.log(
      `  ${n.toLocaleString("en-US")} lines: ${fmt(r.ms / 1000, 2)} s, peak RSS ${r.maxRssKb ? mb(r.maxRssKb) : "n/a"}, ${r.requests} filter requests for ${r.combinations} combinations`,
    );
  verdict(
    `${LINES.toLocaleString("en-US")} lines, ${COMBINATIONS} combinations, 1M links < 20 s`,
    l.ms < 20_000,
    `${fmt(l.ms / 1000, 2)} s`,
  );
  if (s.maxRssKb && l.maxRssKb)
    info(
      "peak RSS, 10x the lines",
      `${mb(s.maxRssKb)} -> ${mb(l.maxRssKb)} (${fmt(l.maxRssKb / s.maxRssKb, 2)}x)`,
    );
  // What the run keeps: both sizes again with a capped heap; a run that kept its lines would
  // fail or grow here.
  const sc = await runCheck(db, small, CAPPED_HEAP_MB);
  const lc = await runCheck(db, big, CAPPED_HEAP_MB);
  if (sc.maxRssKb && lc.maxRssKb)
    verdict(
      `peak RSS with a ${CAPPED_HEAP_MB} MB heap, 10x the lines, grows < 1.25x`,
      lc.maxRssKb / sc.maxRssKb < 1.25,
      `${mb(sc.maxRssKb)} -> ${mb(lc.maxRssKb)} (${fmt(lc.maxRssKb / sc.maxRssKb, 2)}x; ${fmt(sc.ms / 1000, 2)} s -> ${fmt(lc.ms / 1000, 2)} s)`,
    );
}
