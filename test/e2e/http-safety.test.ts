import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import {
  closedPort,
  envelope,
  json,
  startProxy,
  startScripted,
  type ProxyBehaviour,
  type Scripted,
  type ScriptedProxy,
} from "../helpers/server.js";

const KEY = "sk-test-SECRET-9876";
const ENV = { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1" };
const EMPTY = envelope([], 20, 0, false);

async function serve(t: TestContext, handler: Parameters<typeof startScripted>[0]) {
  const s = await startScripted(handler);
  t.onTestFinished(() => s.close());
  return s;
}

async function proxy(t: TestContext, behaviour?: ProxyBehaviour): Promise<ScriptedProxy> {
  const p = await startProxy(behaviour);
  t.onTestFinished(() => p.close());
  return p;
}

/** Every proxy variable pointed at the scripted proxy, with no exceptions. */
function viaProxy(p: ScriptedProxy, extra: Record<string, string> = {}) {
  return {
    ...ENV,
    HTTP_PROXY: p.url,
    HTTPS_PROXY: p.url,
    http_proxy: p.url,
    https_proxy: p.url,
    NO_PROXY: "",
    no_proxy: "",
    ...extra,
  };
}

function expectNoKey(r: { stdout: string; stderr: string }) {
  expect(r.stdout).not.toContain(KEY);
  expect(r.stderr).not.toContain(KEY);
}

describe.concurrent("HTTP backend: the key's safety", () => {
  // Hosts that are not loopback, yet would reach nothing beyond it were the key sent anyway.
  it.for(["http://0.0.0.0", "http://example.invalid:8080", "http://127.example.invalid"])(
    "refuses the key over plain http to %s before any connection (exit 2)",
    async (url, t) => {
      // Were a connection attempted, it would go to this proxy: it must see nothing.
      const p = await proxy(t);
      const r = await runInProcess(["--api-url", url, "search", "--json"], { env: viaProxy(p) });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `refusing to send the API key over plain http to ${new URL(url).host}`,
      );
      expect(r.stderr).toContain("https://");
      expect(r.stderr).toContain("loopback");
      expect(p.targets).toEqual([]);
      expectNoKey(r);
    },
  );

  it("--verbose: one line per request with method, URL, status, ms, retries; the key as ***", async (t) => {
    const s = await serve(t, (_req, res, n) =>
      n === 0 ? json(res, 503, {}, { "retry-after": "0" }) : json(res, 200, EMPTY),
    );
    const r = await runInProcess(["--api-url", s.url, "-v", "search", "--json"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^POST ${s.url}/v1/policies/filter 200 \\d+ ms 1 retry x-api-key: \\*\\*\\* body \\{.*\\}$`,
        "m",
      ),
    );
    expect(s.requests[0]!.headers["x-api-key"]).toBe(KEY);
    expectNoKey(r);
  });

  it("--verbose on a network failure and in the error: no key", async () => {
    const port = await closedPort();
    const r = await runInProcess(
      ["--api-url", `http://127.0.0.1:${port}`, "-v", "search", "--json"],
      { env: ENV },
    );
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/policies\/filter ECONNREFUSED /m,
    );
    expectNoKey(r);
  });

  it("a server that echoes the key in its error detail does not get it printed", async (t) => {
    const s = await serve(t, (req, res) =>
      json(res, 401, { detail: `Invalid API key ${String(req.headers["x-api-key"])}` }),
    );
    const r = await runInProcess(["--api-url", s.url, "search"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain("Invalid API key ***");
    expectNoKey(r);
  });

  it("the key goes to the API's origin only, never to the download link's host", async (t) => {
    const files = await serve(t, (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": "5" });
      res.end("%PDF-");
    });
    const api = await serve(t, (_req, res) =>
      json(res, 200, {
        url: `${files.url}/bucket/x.pdf?X-Amz-Signature=abc123&X-Amz-Expires=900`,
        content_type: "application/pdf",
        filename: "x.pdf",
      }),
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-dl-"));
    const r = await runInProcess(
      ["--api-url", api.url, "-v", "download", "a/b/2026-01-01", "-o", dir],
      { env: ENV },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(api.requests[0]!.url).toBe("/v1/policies/a/b/2026-01-01/download-url?variant=display");
    expect(api.requests[0]!.headers["x-api-key"]).toBe(KEY);
    expect(files.requests).toHaveLength(1);
    expect(files.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(readFileSync(path.join(dir, "x.pdf"), "utf8")).toBe("%PDF-");
    expect(r.stderr).not.toContain("abc123");
    expectNoKey(r);
  });
});

describe.concurrent("HTTP backend: proxies from the environment", () => {
  it("NO_PROXY=127.0.0.1 keeps loopback direct while HTTP(S)_PROXY is set", async (t) => {
    const p = await proxy(t);
    const s = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const r = await runInProcess(["--api-url", s.url, "search", "--json"], {
      env: viaProxy(p, { NO_PROXY: "127.0.0.1" }),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests).toHaveLength(1);
    expect(p.targets).toEqual([]);
  });

  it("a loopback API is reached directly even with HTTP(S)_PROXY set and no NO_PROXY", async (t) => {
    const p = await proxy(t);
    const s = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const r = await runInProcess(["--api-url", s.url, "search", "--json"], { env: viaProxy(p) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests).toHaveLength(1);
    expect(p.targets).toEqual([]);
  });

  it("HTTP_PROXY routes other hosts through the proxy (a CONNECT tunnel)", async (t) => {
    // The name never resolves: only the proxy, which sends it to 127.0.0.1, can reach it.
    const p = await proxy(t, { local: ["api.coverage.invalid"] });
    const s: Scripted = await serve(t, (_req, res) => json(res, 200, { status: "ok" }));
    const url = `http://api.coverage.invalid:${s.port}`;
    const r = await runInProcess(["--api-url", url, "health"], {
      env: { ...viaProxy(p), COVERAGE_API_KEY: "" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(p.targets).toEqual([`api.coverage.invalid:${s.port}`, `api.coverage.invalid:${s.port}`]);
    expect(s.requests.map((q) => q.url)).toEqual(["/health", "/ready"]);
  });

  it("a download link behind a proxy that never answers ends at --timeout (exit 1)", async (t) => {
    const p = await proxy(t, { connect: "hang" });
    const api = await serve(t, (_req, res) =>
      json(res, 200, {
        url: "https://files.coverage.invalid/x.pdf?signature=abc",
        content_type: "application/pdf",
        filename: "X.pdf",
      }),
    );
    const cwd = mkdtempSync(path.join(os.tmpdir(), "coverage-dl-proxy-"));
    const r = await runInProcess(
      ["--api-url", api.url, "--timeout", "1000", "download", "a/b/2026-01-01"],
      { env: viaProxy(p), cwd },
    );
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`timed out after 1000 ms through the proxy ${p.url}`);
    // One CONNECT, to the file host; on a loaded machine the timeout may end the attempt
    // before this process has read it, so none is possible too (the message names the proxy).
    expect(p.targets.length).toBeLessThanOrEqual(1);
    expect(p.targets.every((target) => target === "files.coverage.invalid:443")).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("a proxy that refuses connections is named as such (exit 1)", async () => {
    const port = await closedPort();
    const proxyUrl = `http://127.0.0.1:${port}`;
    const r = await runInProcess(["--api-url", "https://api.coverage.invalid", "payers"], {
      env: { ...ENV, HTTPS_PROXY: proxyUrl, https_proxy: proxyUrl, NO_PROXY: "", no_proxy: "" },
    });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot connect to the proxy ${proxyUrl} (connection refused)`);
    expectNoKey(r);
  });

  it.for(["hang", "drop"] as const)(
    "a proxy that %ss every CONNECT: --timeout ends the command (exit 1)",
    async (connect, t) => {
      const p = await proxy(t, { connect });
      const r = await runInProcess(
        ["--api-url", "https://api.coverage.invalid", "--timeout", "1000", "payers", "--json"],
        { env: viaProxy(p) },
      );
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain(`timed out after 1000 ms through the proxy ${p.url}`);
      expect(r.stderr).toContain("Check the proxy (HTTPS_PROXY, HTTP_PROXY)");
      // Every CONNECT is for the API host (a timeout on a loaded machine may come before the
      // proxy has read one: the message above already says the attempt went through it).
      expect(p.targets.every((target) => target === "api.coverage.invalid:443")).toBe(true);
      expectNoKey(r);
    },
  );
});
