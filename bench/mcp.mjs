// Part `mcp` of `npm run bench` (Node.js 22.13+ for the snapshot): `coverage mcp` over stdio,
// driven by the MCP SDK's own Client as an assistant would.
//  - ready: from spawning `coverage mcp` to the answer of `initialize` and of `tools/list`
//    (bundled data, and the 1M-link snapshot), target < 1 s;
//  - calls on the 1M-link snapshot (bench/out/big.db): each tool in turn, sequentially,
//    latency per tool and overall p50/p99, target p99 < 50 ms;
//  - a flood: rounds of 40 concurrent calls, errors counted, the server's RSS before, after
//    and at its peak (VmHWM), to show that memory stays bounded.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, OUT, ROOT, cleanEnv, fmt, info, printTable, quantile, verdict } from "./lib.mjs";

const NODE = process.execPath;
const RUNS = Number(process.env.BENCH_MCP_RUNS ?? 10);
const ROUNDS = Number(process.env.BENCH_MCP_CALLS ?? 30); // sequential rounds of every tool
const FLOOD_ROUNDS = Number(process.env.BENCH_MCP_FLOOD_ROUNDS ?? 10);

function hasSqlite() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/** Starts `coverage [args] mcp` and connects a Client; resolves with the times it took. */
async function start(args) {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: NODE,
    args: [BIN, ...args, "mcp"],
    env: cleanEnv(),
    cwd: ROOT,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  const initialized = performance.now() - started;
  const { tools } = await client.listTools();
  const listed = performance.now() - started;
  return { client, transport, initialized, listed, tools };
}

/** The server's resident memory now and at its peak (Linux /proc), in MB. */
function rss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { now: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return { now: NaN, peak: NaN };
  }
}

async function timeCall(client, name, args) {
  const t = performance.now();
  const result = await client.callTool({ name, arguments: args });
  return { ms: performance.now() - t, error: Boolean(result.isError), result };
}

/** Spawning `node -e 0`, the floor every start stands on (the machine's load shows in it). */
function nodeFloor() {
  const t = performance.now();
  spawnSync(NODE, ["-e", "0"], { stdio: "ignore" });
  return performance.now() - t;
}

async function ready(db) {
  const floor = [];
  const cases = [
    ["bundled sample", ["--local"]],
    ...(db ? [["1M-link snapshot", ["--data", db]]] : []),
  ];
  const rows = [];
  for (const [label, args] of cases) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      floor.push(nodeFloor());
      const s = await start(args);
      times.push([s.initialized, s.listed]);
      await s.client.close();
    }
    const init = times.map((t) => t[0]);
    const list = times.map((t) => t[1]);
    rows.push([
      label,
      fmt(quantile(init, 0.5), 0),
      fmt(Math.max(...init), 0),
      fmt(quantile(list, 0.5), 0),
      fmt(Math.max(...list), 0),
    ]);
    verdict(
      `mcp ready (${label}) < 1 s`,
      Math.max(...list) < 1000,
      `max ${fmt(Math.max(...list), 0)} ms to tools/list over ${RUNS} starts`,
    );
  }
  rows.push([
    "node -e 0 (interleaved)",
    fmt(quantile(floor, 0.5), 0),
    fmt(Math.max(...floor), 0),
    "",
    "",
  ]);
  printTable(["coverage mcp start, ms", "initialize p50", "max", "tools/list p50", "max"], rows);
}

async function calls(db) {
  const s = await start(["--data", db]);
  const { client } = s;
  const pid = s.transport.pid;
  try {
    // Real ids and keys of the generated catalogue, asked for first.
    const payers = (await client.callTool({ name: "list_payers", arguments: { limit: 5 } }))
      .structuredContent.data;
    const found = (
      await client.callTool({
        name: "search_policies",
        arguments: { codes: ["ICD10CM:E119"], limit: 5 },
      })
    ).structuredContent.data;
    const id = found[0].policy_id;
    const key = id.split("/").slice(0, -1).join("/");
    const calls = [
      ["search_policies", { codes: ["ICD10CM:E119"], states: ["CA"] }],
      ["search_policies", { query: "sleep apnea", states: ["CA"], limit: 100 }],
      ["get_policy", { policy_id: id }],
      ["get_policy", { policy_id: key }],
      ["lookup_code", { code: "ICD10CM:E11.65", states: ["TX"] }],
      ["coverage_matrix", { code: "ICD10CM:E11.65", states: ["CA", "TX", "NY"] }],
      ["policy_versions", { policy_key: key }],
      ["diff_policy_versions", { policy_key: key }],
      ["recent_updates", { days: 30 }],
      ["list_payers", { limit: 100 }],
      ["list_lobs", { payers: [payers[0].payer_id], limit: 100 }],
    ];
    const byTool = new Map();
    const all = [];
    let errors = 0;
    // One untimed round: the first call of each kind opens what it needs.
    for (const [name, args] of calls) await timeCall(client, name, args);
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, args] of calls) {
        const r = await timeCall(client, name, args);
        if (r.error) errors++;
        const label = `${name} ${JSON.stringify(args)}`.slice(0, 90);
        if (!byTool.has(label)) byTool.set(label, []);
        byTool.get(label).push(r.ms);
        all.push(r.ms);
      }
    printTable(
      ["tool call on the 1M-link snapshot", "p50 ms", "p99 ms", "max ms"],
      [...byTool].map(([label, t]) => [
        label,
        fmt(quantile(t, 0.5)),
        fmt(quantile(t, 0.99)),
        fmt(Math.max(...t)),
      ]),
    );
    const p99 = quantile(all, 0.99);
    verdict(
      "mcp tool call on 1M links, p99 < 50 ms",
      p99 < 50 && errors === 0,
      `p50 ${fmt(quantile(all, 0.5))} ms, p99 ${fmt(p99)} ms over ${all.length} calls, ${errors} errors`,
    );

    // The flood: rounds of 40 concurrent calls.
    const before = rss(pid);
    let floodErrors = 0;
    const floodTimes = [];
    for (let round = 0; round < FLOOD_ROUNDS; round++) {
      const t = performance.now();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => timeCall(client, ...calls[i % calls.length])),
      );
      floodTimes.push(performance.now() - t);
      floodErrors += results.filter((r) => r.error).length;
    }
    const after = rss(pid);
    verdict(
      "40 concurrent calls answered without error, memory bounded",
      floodErrors === 0,
      `${FLOOD_ROUNDS} rounds, ${floodErrors} errors, a round p50 ${fmt(quantile(floodTimes, 0.5), 0)} ms max ${fmt(Math.max(...floodTimes), 0)} ms; RSS ${fmt(before.now, 0)} MB before, ${fmt(after.now, 0)} MB after, peak ${fmt(after.peak, 0)} MB`,
    );
  } finally {
    await client.close();
  }
}

/** The mcp part; `ensureDataset(file, args)` is run.mjs's generator helper. */
export async function mcpPart(ensureDataset) {
  console.log("\n## 6. `coverage mcp` (SDK client over stdio)");
  if (!hasSqlite()) {
    info("mcp on a snapshot", `node:sqlite needs Node.js 22.13+, this is ${process.version}`);
    return ready(null);
  }
  const json = path.join(OUT, "big.json");
  const db = path.join(OUT, "big.db");
  if (!existsSync(db)) {
    ensureDataset(json, []);
    const r = spawnSync(NODE, [BIN, "data", "build", json, "-o", db, "--force"], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: "inherit",
    });
    if (r.status !== 0) throw new Error("data build big.json failed");
  }
  info("snapshot", `${path.relative(ROOT, db)}, ${fmt(statSync(db).size / 2 ** 20, 0)} MB`);
  await ready(db);
  await calls(db);
}
