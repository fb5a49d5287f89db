// Load on `coverage serve` (loopback only, bounded in time and in clients): a mixed-endpoint run
// with N concurrent clients, and "heavy requests" (bodies naming thousands of ICD-10-CM codes)
// timed together with how long `/health` takes to answer meanwhile.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { cleanEnv, ROOT, waitForLine } from "./lib.mjs";

/** Starts `coverage serve --port 0` on `file` (loopback); resolves to { url, child }. */
export async function startServe(bin, file, extra = [], env = cleanEnv()) {
  const child = spawn(
    process.execPath,
    [bin, "serve", "--host", "127.0.0.1", "--port", "0", "--data", file, ...extra],
    { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const m = await waitForLine(child, /(http:\/\/127\.0\.0\.1:\d+)/, 120_000, "coverage serve");
  child.stderr.resume();
  child.stdout.resume();
  return { url: m[1], child };
}

/** Peak and current RSS of a process, from /proc (Linux); null elsewhere. */
export function rssKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const get = (k) => Number(status.match(new RegExp(`^${k}:\\s+(\\d+)`, "m"))?.[1]);
    return { rss: get("VmRSS"), peak: get("VmHWM") };
  } catch {
    return null;
  }
}

/** One request on a keep-alive agent; resolves to { status, ms, bytes }. */
export function send(url, { method = "GET", path = "/", body, agent, timeoutMs = 600_000 } = {}) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(body);
    const req = request(
      url + path,
      {
        method,
        agent,
        headers: data
          ? { "content-type": "application/json", "content-length": data.length }
          : undefined,
        timeout: timeoutMs,
      },
      (res) => {
        let bytes = 0;
        res.on("data", (c) => (bytes += c.length));
        res.on("end", () =>
          resolve({ status: res.statusCode, ms: performance.now() - started, bytes }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(data);
  });
}

/** The distinct ICD-10-CM codes of a generated dataset's catalogue, in file order. */
export function catalogueCodes(file) {
  const text = readFileSync(file, "utf8");
  const codes = JSON.parse(text).codes ?? [];
  return [...new Set(codes.filter((c) => c.code_system === "ICD10CM").map((c) => c.code))];
}

/** A filter body naming `codes` in one ICD-10-CM ref. */
export function heavyBody(codes) {
  return JSON.stringify({
    policies: { code_refs: { refs: [{ code_system: "ICD10CM", codes }] } },
    limit: 10,
  });
}

/**
 * Sends one heavy body and, while it runs, asks `/health` every 50 ms on its own connection:
 * the heavy request's time and status, and the slowest `/health` seen meanwhile.
 */
export async function timeHeavy(url, body) {
  let done = false;
  let worstHealth = 0;
  const heavy = send(url, { method: "POST", path: "/v1/policies/filter", body }).finally(
    () => (done = true),
  );
  const poll = (async () => {
    while (!done) {
      const r = await send(url, { path: "/health", agent: false }).catch(() => ({ ms: NaN }));
      worstHealth = Math.max(worstHealth, r.ms);
      await new Promise((f) => setTimeout(f, 50));
    }
  })();
  const r = await heavy;
  await poll;
  return { ...r, worstHealth };
}

/**
 * What mixed requests ask about, from a dataset: [code_system, code] pairs its versions link
 * and its policy ids (at most `max` of each, spread out).
 */
export function sampleDataset(file, max = 2000) {
  const { policies } = JSON.parse(readFileSync(file, "utf8"));
  const pairs = new Map();
  for (const p of policies)
    for (const c of p.codes) pairs.set(`${c.code_system}:${c.code}`, [c.code_system, c.code]);
  const spread = (all) => all.filter((_, i) => i % Math.max(1, Math.floor(all.length / max)) === 0);
  return { codes: spread([...pairs.values()]), ids: spread(policies.map((p) => p.policy_id)) };
}

/** Mixed requests a client of the API makes, picked round robin; from sampleDataset. */
export function mixedRequests({ codes, ids }) {
  const code = (i) => codes[(i * 7919) % codes.length];
  return [
    (i) => ({
      method: "POST",
      path: "/v1/policies/filter",
      body: JSON.stringify({
        policies: {
          code_refs: { refs: [{ code_system: code(i)[0], codes: [code(i)[1]] }] },
          states: ["CA"],
        },
        include_applicability: true,
      }),
    }),
    () => ({ path: "/v1/payers" }),
    () => ({ path: "/v1/lobs?limit=100" }),
    () => ({ path: "/v1/policies/updates?days=90" }),
    (i) => ({
      method: "POST",
      path: "/v1/policies/filter",
      body: JSON.stringify({ policies: { states: ["CA"], q: ["kidney", "screening"][i % 2] } }),
    }),
    (i) => ({ path: `/v1/policies/${ids[(i * 31) % ids.length]}` }),
    () => ({ path: "/health" }),
  ];
}

/**
 * `clients` keep-alive clients, each sending one request after another for `seconds`; returns
 * the latencies, statuses and the server's RSS before and after.
 */
export async function runLoad(url, pid, { clients, seconds, sample, agentOf }) {
  const kinds = mixedRequests(sample);
  const before = rssKb(pid);
  const latencies = [];
  const statuses = new Map();
  const end = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const agent = agentOf(c);
      while (performance.now() < end) {
        const i = n++;
        const r = await send(url, {
          ...kinds[i % kinds.length](i),
          agent,
          timeoutMs: 30_000,
        }).catch(() => ({ status: "error", ms: NaN }));
        latencies.push(r.ms);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses, before, after: rssKb(pid), seconds };
}

/**
 * Sends `body` and, `afterMs` into it, SIGTERM to the server: milliseconds from the signal to
 * the process's exit (the request's own fate does not matter).
 */
export async function timeSigterm(child, url, body, afterMs = 300) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  send(url, { method: "POST", path: "/v1/policies/filter", body, agent: false }).catch(() => {});
  await new Promise((f) => setTimeout(f, afterMs));
  const signalled = performance.now();
  child.kill("SIGTERM");
  await exited;
  return performance.now() - signalled;
}
