// Shared helpers of the benchmark: process timing, peak RSS, statistics, printing.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OUT = path.join(ROOT, "bench", "out");
export const BIN = path.join(ROOT, "bin", "coverage.js");
/** GNU time reports the peak RSS of the process it waits for; optional. */
export const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

/** An environment without the user's COVERAGE_* settings, proxies or colours (like the e2e tests). */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("COVERAGE_") || k === "NODE_OPTIONS") continue;
    if (/^(no_color|force_color|https?_proxy|all_proxy)$/i.test(k)) continue;
    env[k] = v;
  }
  env.COVERAGE_CONFIG_DIR = CONFIG_DIR;
  // Node's compile cache (turned on by bin/coverage.js) goes to the temporary folder's
  // node-compile-cache: a fresh one, filled by each bench run's first runs, as on a user's
  // first runs. NODE_COMPILE_CACHE would turn it on for every process, not only the CLI.
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  env.TMPDIR = CONFIG_DIR;
  return { ...env, ...extra };
}
const CONFIG_DIR = mkdtempSync(path.join(os.tmpdir(), "coverage-bench-"));
process.on("exit", () => rmSync(CONFIG_DIR, { recursive: true, force: true }));

/**
 * Runs a command to completion; resolves to wall time (ms), exit code, peak RSS (KB, when
 * GNU time is there and `rss` is asked for) and stderr. stdout goes to /dev/null unless kept.
 */
export function runTimed(
  cmd,
  args,
  { env = cleanEnv(), cwd = ROOT, rss = false, keepStdout = false } = {},
) {
  const rssFile = rss && GNU_TIME ? path.join(CONFIG_DIR, `rss-${process.hrtime.bigint()}`) : null;
  const [file, argv] = rssFile
    ? [GNU_TIME, ["-f", "%M", "-o", rssFile, cmd, ...args]]
    : [cmd, args];
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(file, argv, {
      env,
      cwd,
      stdio: ["ignore", keepStdout ? "pipe" : "ignore", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout?.on("data", (d) => (stdout += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      let maxRssKb = null;
      if (rssFile && existsSync(rssFile)) {
        const last = readFileSync(rssFile, "utf8").trim().split("\n").pop();
        maxRssKb = Number(last) || null;
        rmSync(rssFile, { force: true });
      }
      resolve({ ms, code, stderr, stdout, maxRssKb });
    });
  });
}

/**
 * Runs every case `runs` times, interleaved (case A, B, C, A, B, C, ...) so that load from
 * other work on the machine falls on all of them alike. Fails loudly on a non-zero exit. A case
 * may have `prepare()` (untimed, before each run) and `measure(result)` (a number from its run).
 */
export async function interleave(cases, runs, { warmup = 1, rss = false } = {}) {
  const results = new Map(cases.map((c) => [c.name, { ms: [], rss: [], measured: [] }]));
  for (let round = -warmup; round < runs; round++) {
    for (const c of round % 2 ? cases : [...cases].reverse()) {
      // Untimed set-up before every run (e.g. removing the previous run's output).
      c.prepare?.();
      // A case may time itself (a server, to its ready line): `run` resolves to what runTimed gives.
      const r = c.run
        ? await c.run()
        : await runTimed(c.cmd, c.args, {
            env: c.env,
            cwd: c.cwd,
            rss,
            // A pipe, read to the end, where the case asks for one (the CLI writes to a pipe
            // through Node's streams); otherwise /dev/null.
            keepStdout: Boolean(c.measure || c.pipe),
          });
      if (r.code !== 0 && !c.allowFail) {
        throw new Error(`${c.name} exited ${r.code}:\n${r.stderr.slice(0, 2000)}`);
      }
      if (round < 0) continue;
      results.get(c.name).ms.push(r.ms);
      if (r.maxRssKb) results.get(c.name).rss.push(r.maxRssKb);
      // A figure the command reports about itself (e.g. its transfer time), from its output.
      if (c.measure) results.get(c.name).measured.push(c.measure(r));
    }
  }
  return results;
}

/** The q-quantile (0..1) of numbers, by linear interpolation. */
export function quantile(values, q) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
export const median = (values) => quantile(values, 0.5);

/** Formats a number with a fixed number of decimals, or "n/a". */
export function fmt(n, digits = 1) {
  return Number.isFinite(n) ? n.toFixed(digits) : "n/a";
}
export const mb = (kb) => (kb ? `${(kb / 1024).toFixed(0)} MB` : "n/a");

/** Prints rows as aligned columns. */
export function printTable(header, rows) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c ?? "")));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  for (const [n, r] of all.entries()) {
    console.log(
      "  " + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "),
    );
    if (n === 0) console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  }
}

const verdicts = [];
/** Records a target's outcome; printed again in the summary at the end. */
export function verdict(name, ok, detail) {
  const line = `${ok === null ? "SKIP" : ok ? "PASS" : "FAIL"}  ${name}: ${detail}`;
  verdicts.push(line);
  console.log("  " + line);
}
/** A figure printed beside the verdicts that no target applies to. */
export function info(name, detail) {
  const line = `INFO  ${name}: ${detail}`;
  verdicts.push(line);
  console.log("  " + line);
}
/** A figure --quiet-check refused (bench/quiet.mjs): printed and summed up like a verdict. */
export function refused(line) {
  verdicts.push(line);
  console.log("  " + line);
}
/** Every verdict so far. */
export function verdictLines() {
  return verdicts;
}

/** Waits for a line matching `re` on a child's stdout; resolves to the match. */
export function waitForLine(child, re, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    let seen = "";
    let err = "";
    const timer = setTimeout(
      () => done(new Error(`${what}: no ${re} within ${timeoutMs} ms\n${err}`)),
      timeoutMs,
    );
    const onData = (d) => {
      seen += d;
      const m = seen.match(re);
      if (m) done(null, m);
    };
    const onErr = (d) => (err += d);
    const onExit = (code) => done(new Error(`${what} exited ${code} before it was ready\n${err}`));
    function done(e, m) {
      clearTimeout(timer);
      child.stdout.off("data", onData);
      child.stderr?.off("data", onErr);
      child.off("exit", onExit);
      if (e) reject(e);
      else resolve(m);
    }
    child.stdout.on("data", onData);
    child.stderr?.on("data", onErr);
    child.on("exit", onExit);
  });
}

/** The machine the figures come from. */
export function machine() {
  const cpu =
    readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ??
    os.cpus()[0]?.model;
  return `${os.availableParallelism?.() ?? os.cpus().length} cores, ${cpu}, node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** Prints a timing table with ratios to the first case (the baseline). */
export function reportRatios(cases, results) {
  const base = median(results.get(cases[0].name).ms);
  printTable(
    ["case", "median ms", "p90 ms", "ratio", "peak RSS"],
    cases.map((c) => {
      const r = results.get(c.name);
      return [
        c.name,
        fmt(median(r.ms)),
        fmt(quantile(r.ms, 0.9)),
        `${fmt(median(r.ms) / base, 2)}x`,
        mb(median(r.rss)),
      ];
    }),
  );
  return (name) => median(results.get(name).ms) / base;
}

/** Whether this Node.js has node:sqlite without a flag (22.13+): the snapshot parts need it. */
export function hasSqlite() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/** Records a part skipped for want of node:sqlite; true when it is (the part then returns). */
export function skipWithoutSqlite(name) {
  if (hasSqlite()) return false;
  verdict(name, null, `node:sqlite needs Node.js 22.13+, this is ${process.version}; part skipped`);
  return true;
}

/** mulberry32: a small, fast random generator that gives the same numbers on every machine. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The i-th procedure of the generated dataset's pool: CPT 9xxxx, every fifth one HCPCS Exxxx. */
export function procedureOf(i) {
  return i % 5 === 4
    ? { code_system: "HCPCS", code: `E${String(1000 + i).padStart(4, "0")}` }
    : { code_system: "CPT", code: String(90000 + i) };
}
