// Part `edits` of `npm run bench` (Node.js 22.13+): Medicare's edits at CMS's size.
//  - `data import edits` of the PTP baseline's size (4.5 million rows over 8 files in CMS's
//    layout; BENCH_PTP_ROWS) under 90 s, with peak RSS beside one file's import (memory must not
//    grow with the file);
//  - `code CPT:X --edits --locality` on that snapshot within 2.0x `node -e 0` plus 20 ms;
//  - `check` of 100,000 lines in 10,000 claims with edits (BENCH_EDIT_LINES) under 30 s.
import { createWriteStream, mkdirSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
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
  rng,
  runTimed,
  verdict,
} from "./lib.mjs";

const NODE = process.execPath;
const ROWS = Number(process.env.BENCH_PTP_ROWS ?? 4_500_000);
const LINES = Number(process.env.BENCH_EDIT_LINES ?? 100_000);
const RUNS = Number(process.env.BENCH_EDIT_RUNS ?? 10);
const LAYOUT = path.join(ROOT, "test", "fixtures", "medicare", "layout");
const REAL = path.join(ROOT, "test", "fixtures", "medicare", "real");
const RATIONALES = [
  "Misuse of column two code with column one code",
  "CPT Manual or CMS manual coding instruction",
  "Mutually exclusive procedures",
  "Standards of medical/surgical practice",
];
const code = (n) => String(10000 + (n % 90000)).padStart(5, "0");

/** Eight PTP parts in CMS's layout (the real file's six header lines), `rows` rows in all. */
async function writePtp(dir, rows) {
  const header = readFileSync(path.join(LAYOUT, "ccipra-v322r0-f2.txt"), "latin1")
    .split("\r\n")
    .slice(0, 6)
    .join("\r\n");
  const rand = rng(41);
  const files = [];
  for (let part = 1; part <= 8; part++) {
    const file = path.join(dir, `ccipra-v999r0-f${part}.txt`);
    const out = createWriteStream(file, { encoding: "latin1" });
    out.write(`${header}\r\n`);
    const from = Math.floor(((part - 1) * rows) / 8);
    const to = Math.floor((part * rows) / 8);
    for (let i = from; i < to; i++) {
      const year = 2000 + Math.floor(rand() * 26);
      const del = rand() < 0.7 ? "*" : `${year + Math.floor(rand() * 3)}1231`;
      const line = `${code(Math.floor(i / 50))}\t${code(Math.floor(rand() * 90000))}\t\t${year}0101\t${del}\t${Math.floor(rand() * 2)}\t${RATIONALES[i % 4]}\r\n`;
      if (!out.write(line)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    files.push(file);
  }
  return files;
}

/**
 * `lines` claim lines in claims of 10, codes drawn from 2,000 of the PTP file's column 1 codes
 * (about as many distinct questions as the check part's 2,000 combinations).
 */
async function writeClaims(file, lines) {
  const rand = rng(7);
  const out = createWriteStream(file);
  out.write("claim,procedure,diagnosis,state,date,units,modifiers\n");
  for (let i = 0; i < lines; i++) {
    const c = code(Math.floor(rand() * Math.min(2000, ROWS / 50)));
    const line = `C${Math.floor(i / 10)},${c},M54.50,TX,2026-06-15,${1 + Math.floor(rand() * 3)},${rand() < 0.2 ? "59" : ""}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

const coverage = (args) => [BIN, "--local", ...args];

/** The part: files, imports (timed, RSS), then `code` and `check` on the snapshot. */
export async function editsPart() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 13))
    return verdict(
      "Medicare edits",
      null,
      `needs node:sqlite (Node 22.13+), this is ${process.version}`,
    );
  const dir = path.join(OUT, "medicare-edits");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`\n## Medicare's edits: ${ROWS.toLocaleString("en-US")} PTP rows over 8 files`);
  const ptp = await writePtp(dir, ROWS);
  const one = path.join(dir, "one.db");
  const all = path.join(dir, "all.db");
  const single = await runTimed(
    NODE,
    coverage(["data", "import", "edits", ptp[0], "--into", one]),
    { rss: true },
  );
  const full = await runTimed(
    NODE,
    coverage([
      "data",
      "import",
      "edits",
      ...ptp,
      path.join(LAYOUT, "MCR_MUE_PractitionerServices_Eff_10-01-2026.csv"),
      "--into",
      all,
    ]),
    { rss: true },
  );
  if (full.code !== 0) throw new Error(`import exited ${full.code}: ${full.stderr.slice(-1000)}`);
  const fees = [
    path.join(LAYOUT, "PPRRVU2026_Oct_nonQPP.csv"),
    path.join(REAL, "GPCI2026.excerpt.csv"),
    path.join(LAYOUT, "DMEPOS26_OCT.csv"),
  ];
  await runTimed(NODE, coverage(["data", "import", "fees", ...fees, "--into", all]));
  await runTimed(NODE, coverage(["data", "import", "pa", "--into", all]));
  verdict(
    "PTP baseline import < 90 s",
    full.ms < 90_000,
    `${fmt(full.ms / 1000, 1)} s, peak RSS ${mb(full.maxRssKb)} (one file of eight: ${mb(single.maxRssKb)})`,
  );
  info(
    "import memory vs file size",
    `${mb(full.maxRssKb)} for 8 files, ${mb(single.maxRssKb)} for 1`,
  );

  const results = await interleave(
    [
      { name: "node -e 0", cmd: NODE, args: ["-e", "0"] },
      {
        name: "code --edits --locality",
        cmd: NODE,
        args: coverage([
          "--data",
          all,
          "code",
          "CPT:64483",
          "--state",
          "TX",
          "--date",
          "2026-06-15",
          "--edits",
          "--locality",
          "18",
          "--json",
        ]),
      },
    ],
    RUNS,
  );
  const base = median(results.get("node -e 0").ms);
  const dossier = median(results.get("code --edits --locality").ms);
  verdict(
    "code with edits and fees <= 2.0x node -e 0 + 20 ms",
    dossier <= 2 * base + 20,
    `${fmt(dossier, 0)} ms vs node -e 0 ${fmt(base, 0)} ms`,
  );

  const claims = path.join(dir, "claims.csv");
  await writeClaims(claims, LINES);
  const check = await runTimed(
    NODE,
    coverage(["--data", all, "check", "--input", claims, "--format", "ndjson"]),
    { rss: true },
  );
  if (check.code !== 0) throw new Error(`check exited ${check.code}: ${check.stderr.slice(-1000)}`);
  verdict(
    `check of ${LINES.toLocaleString("en-US")} lines in ${(LINES / 10).toLocaleString("en-US")} claims with edits < 30 s`,
    check.ms < 30_000,
    `${fmt(check.ms / 1000, 1)} s, peak RSS ${mb(check.maxRssKb)}`,
  );
}
