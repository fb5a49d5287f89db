// Part `snapshot` of `npm run bench` (Node.js 22.13+): the snapshot store against its targets.
// 1M links: `data build` time and peak RSS (against the JSON path's), one-shot search against
// `node -e 0`, `coverage serve` ready time and filter latency under 10 concurrent clients (the
// six bodies repeated, as the target is measured, then each made distinct so no request is
// answered from the server's filter cache: reported beside it, no verdict);
// 5M links (a 540 MB JSON, over V8's string limit for the JSON path): build and one-shot search.
// BENCH_SERVE_ONLY=1 runs only the serve measurement, on bench/out/big.db as it is (built if missing).
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  BIN,
  GNU_TIME,
  OUT,
  ROOT,
  cleanEnv,
  fmt,
  info,
  interleave,
  mb,
  median,
  printTable,
  quantile,
  refused,
  reportRatios,
  runTimed,
  verdict,
  waitForLine,
} from "./lib.mjs";
import { refusal, underLoadCheck } from "./quiet.mjs";

const NODE = process.execPath;
const RUNS = Number(process.env.BENCH_SNAPSHOT_RUNS ?? 10);
const CLIENTS = 10;
const REQUESTS = Number(process.env.BENCH_SERVE_REQUESTS ?? 100); // per client

function hasSqlite() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/** Builds `db` from `json` once (timed, with peak RSS) unless it is newer than the JSON. */
async function build(json, db, rebuild) {
  if (!rebuild && existsSync(db) && statSync(db).mtimeMs > statSync(json).mtimeMs) return null;
  const r = await runTimed(NODE, [BIN, "data", "build", json, "-o", db, "--force"], { rss: true });
  if (r.code !== 0) throw new Error(`data build ${json} exited ${r.code}:\n${r.stderr}`);
  return r;
}

async function oneShot(label, db, limit) {
  const search = ["--code", "ICD10CM:E119", "--state", "CA"];
  const cases = [
    { name: "node -e 0", cmd: NODE, args: ["-e", "0"] },
    {
      name: `coverage --data ${label} search --code ICD10CM:E119 --state CA`,
      cmd: NODE,
      args: [BIN, "--local", "--data", db, "search", ...search],
    },
    {
      name: `coverage --data ${label} search sleep apnea --state CA (info)`,
      cmd: NODE,
      args: [BIN, "--local", "--data", db, "search", "sleep", "apnea", "--state", "CA"],
    },
  ];
  const {
    result: results,
    quiet,
    note,
  } = await underLoadCheck(() => interleave(cases, RUNS, { warmup: 1, rss: true }));
  console.log(`  (${note})`);
  const ratioOf = reportRatios(cases, results);

  const r = results.get(cases[1].name);
  const ratio = ratioOf(cases[1].name);
  const what = `one-shot search, ${label} <= ${limit}x node -e 0`;
  if (quiet) verdict(what, ratio <= limit, `${fmt(ratio, 2)}x (${note})`);
  else refused(refusal(what, `${fmt(ratio, 2)}x, ${note}`));
  return { ratio, rssKb: median(r.rss) };
}

function post(port, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/v1/policies/filter",
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json" },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

async function serve(db) {
  const ready = [];
  let server;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const child = spawn(NODE, [BIN, "serve", "--port", "0", "--quiet", "--data", db], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const m = await waitForLine(child, /(http:\/\/[^\s]+)/, 60_000, "coverage serve");
    ready.push(performance.now() - started);
    if (i < 4) {
      child.kill();
      await new Promise((r) => child.once("exit", r));
    } else server = { child, port: Number(new URL(m[1]).port) };
  }
  const readyMs = median(ready);
  verdict(
    "serve on the 1M-link snapshot ready < 0.5 s",
    readyMs < 500,
    `median ${fmt(readyMs, 0)} ms of 5 starts (process start to URL line)`,
  );
  try {
    const bodies = [
      {
        policies: {
          code_refs: { refs: [{ code_system: "ICD10CM", codes: ["E11.9"] }] },
          states: ["CA"],
        },
      },
      { policies: { states: ["NY"], lobs: ["commercial"] } },
      { policies: { q: "sleep apnea" } },
      { policies: { effective_date: { start: "2025-01-01", end: "2025-01-01" } }, limit: 50 },
      { policies: { payer_ids: ["P07"], retired: false }, include_applicability: true },
      {
        policies: {
          code_refs: { refs: [{ code_system: "ICD10CM", codes: ["E11.9", "I10"] }], match: "all" },
        },
        include_code_groups: true,
      },
    ];
    for (const b of bodies) await post(server.port, b); // warm-up
    // The server keeps a filter's ranked list (FilterCache): the six bodies repeated are
    // answered from it after their first time. The second round makes every body distinct
    // (a `q` of punctuation only, which counts as no `q`: the same answer, another filter), so
    // every request filters and ranks again. It has its own warm-up (60 distinct bodies, one
    // client): after a first round of cache hits the filtering code has barely run, and its
    // first hundreds of calls (still being optimised) would make a tail of their own.
    const distinctBody = (b, n) => {
      const pad = "-".repeat(n);
      return {
        ...b,
        policies: { ...b.policies, q: b.policies.q ? `${b.policies.q} ${pad}` : pad },
      };
    };
    const round = async (distinct) => {
      const times = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          for (let i = 0; i < REQUESTS; i++) {
            const b = bodies[(c + i) % bodies.length];
            times.push(
              await post(server.port, distinct ? distinctBody(b, 100 + c * REQUESTS + i) : b),
            );
          }
        }),
      );
      const wall = (performance.now() - started) / 1000;
      return {
        times,
        p50: quantile(times, 0.5),
        p99: quantile(times, 0.99),
        rate: times.length / wall,
      };
    };
    const same = await round(false);
    for (let i = 0; i < 60; i++)
      await post(server.port, distinctBody(bodies[i % bodies.length], 1 + i));
    const distinct = await round(true);
    printTable(
      ["serve, 1M-link snapshot", "requests", "p50 ms", "p99 ms", "req/s"],
      [
        [
          `${CLIENTS} concurrent clients`,
          same.times.length,
          fmt(same.p50),
          fmt(same.p99),
          fmt(same.rate, 0),
        ],
        [
          `  every body distinct (no cache hit)`,
          distinct.times.length,
          fmt(distinct.p50),
          fmt(distinct.p99),
          fmt(distinct.rate, 0),
        ],
      ],
    );
    verdict(
      `serve filter p99 < 50 ms under ${CLIENTS} concurrent clients`,
      same.p99 < 50,
      `p99 ${fmt(same.p99)} ms over ${same.times.length} requests`,
    );
    info(
      "the same with every body distinct (each filtered and ranked anew)",
      `p50 ${fmt(distinct.p50)} ms, p99 ${fmt(distinct.p99)} ms over ${distinct.times.length} requests`,
    );
  } finally {
    server.child.kill();
  }
}

/** The snapshot part; `ensureDataset(file, args)` is run.mjs's generator helper. */
export async function snapshotPart(ensureDataset) {
  console.log("\n## 5. Snapshots (`coverage data build`, `--data SNAPSHOT.db`, `serve`)");
  if (!hasSqlite()) {
    verdict(
      "snapshot targets",
      null,
      `node:sqlite needs Node.js 22.13+, this is ${process.version}; part skipped`,
    );
    return;
  }
  const json = path.join(OUT, "big.json");
  const db = path.join(OUT, "big.db");
  // Only serve: on the snapshot as it is (no generating or rebuilding), made if missing.
  if (process.env.BENCH_SERVE_ONLY && existsSync(db)) return serve(db);
  ensureDataset(json, []);
  if (process.env.BENCH_SERVE_ONLY) {
    await build(json, db, true);
    return serve(db);
  }
  const built = await build(json, db, true);
  const jsonPath = await runTimed(
    NODE,
    [BIN, "--local", "--data", json, "search", "--code", "ICD10CM:E119", "--state", "CA"],
    { rss: true },
  );
  printTable(
    ["1M links (big.json, 108 MB)", "seconds", "peak RSS"],
    [
      ["coverage data build big.json -o big.db", fmt(built.ms / 1000, 1), mb(built.maxRssKb)],
      ["JSON path: one-shot search on big.json", fmt(jsonPath.ms / 1000, 1), mb(jsonPath.maxRssKb)],
    ],
  );
  verdict(
    "data build of the 1M-link dataset < 20 s",
    built.ms < 20_000,
    `${fmt(built.ms / 1000, 1)} s; snapshot ${fmt(statSync(db).size / 1e6, 0)} MB`,
  );
  verdict(
    "data build peak RSS under the JSON path's",
    GNU_TIME ? built.maxRssKb < jsonPath.maxRssKb : null,
    GNU_TIME ? `${mb(built.maxRssKb)} vs ${mb(jsonPath.maxRssKb)}` : "no /usr/bin/time",
  );
  const one = await oneShot("big.db", db, 2.0);
  verdict(
    "one-shot search, big.db peak RSS <= 80 MB",
    GNU_TIME ? one.rssKb <= 80 * 1024 : null,
    mb(one.rssKb),
  );
  await serve(db);

  if (process.env.BENCH_SKIP_5M) return info("5M links", "skipped (BENCH_SKIP_5M)");
  const json5 = path.join(OUT, "big5m.json");
  ensureDataset(json5, ["--versions", "100000", "--links", "5000000", "--seed", "11"]);
  const db5 = path.join(OUT, "big5m.db");
  const built5 = await build(json5, db5, false);
  if (built5)
    info(
      "data build of the 5M-link dataset",
      `${fmt(built5.ms / 1000, 1)} s, peak ${mb(built5.maxRssKb)} (${fmt(statSync(json5).size / 1e6, 0)} MB of JSON)`,
    );
  await oneShot("big5m.db", db5, 2.5);
}
