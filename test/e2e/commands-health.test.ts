import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

const TABLE_ENV = { COLUMNS: "100", NO_COLOR: "1", COVERAGE_RETRY_BASE_MS: "1" };

describe("coverage health", () => {
  const local = (args: string[]) =>
    runInProcess(["--data", RULES_DATA, "health", ...args], { env: TABLE_ENV });

  it("local engine: both checks 200, exit 0, table", async () => {
    const r = await local([]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatchSnapshot();
  });

  it("--json: {health: {status, body}, ready: {status, body}}", async () => {
    const r = await local(["--json"]);
    expect(JSON.parse(r.stdout)).toEqual({
      health: { status: 200, body: { status: "ok" } },
      ready: { status: 200, body: { status: "ready" } },
    });
  });

  it("ndjson and csv: one row per check", async () => {
    const nd = await local(["--format", "ndjson"]);
    expect(nd.stdout.split("\n").map((l) => JSON.parse(l).name)).toEqual(["health", "ready"]);
    const csv = await local(["--format", "csv"]);
    expect(csv.stdout).toBe(
      'name,status,body\r\nhealth,200,"{""status"":""ok""}"\r\nready,200,"{""status"":""ready""}"',
    );
  });

  it("--dry-run prints both requests, one JSON object per line", async () => {
    const r = await local(["--dry-run"]);
    expect(r.stdout.split("\n").map((l) => JSON.parse(l))).toEqual([
      // The checks are sent without the key, and the dry run shows what would be sent.
      { method: "GET", url: "http://local/health", headers: {} },
      { method: "GET", url: "http://local/ready", headers: {} },
    ]);
  });

  describe("against a scripted server", () => {
    let server: Server;
    let base: string;
    let ready = 503;
    const keys: Array<string | undefined> = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        keys.push(req.headers["x-api-key"] as string | undefined);
        res.setHeader("content-type", "application/json");
        if (req.url === "/health") return res.end(JSON.stringify({ status: "ok" }));
        // The key check (sent only when a key is set).
        if (req.url === "/v1/payers?limit=1")
          return res.end(JSON.stringify({ data: [], limit: 1, offset: 0, has_more: false }));
        if (req.url === "/ready") {
          res.statusCode = ready;
          return res.end(JSON.stringify({ status: ready === 200 ? "ready" : "unavailable" }));
        }
        res.statusCode = 404;
        res.end("{}");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it.each([
      { status: 503, exit: 1 },
      { status: 200, exit: 0 },
    ])("/ready answers $status: exit $exit, both shown", async ({ status, exit }) => {
      ready = status;
      const r = await runInProcess(["--api-url", base, "health", "--json"], { env: TABLE_ENV });
      expect(r.exitCode).toBe(exit);
      expect(JSON.parse(r.stdout)).toEqual({
        health: { status: 200, body: { status: "ok" } },
        ready: { status, body: { status: status === 200 ? "ready" : "unavailable" } },
      });
      if (exit) expect(r.stderr).toContain(`/ready answered ${status}`);
    });

    it.each([
      {
        key: "sk-test-health-1234",
        sent: ["sk-test-health-1234", "sk-test-health-1234", "sk-test-health-1234"],
      },
      { key: "", sent: [undefined, undefined] },
    ])(
      "the checks carry the key when one is set ($key), as the dry run shows",
      async ({ key, sent }) => {
        ready = 200;
        keys.length = 0;
        const env = { ...TABLE_ENV, COVERAGE_API_KEY: key };
        const r = await runInProcess(["--api-url", base, "-v", "health"], { env });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(keys).toEqual(sent);
        expect(r.stderr).not.toContain(key || "never");
        const dry = await runInProcess(["--api-url", base, "health", "--dry-run"], { env });
        const headers = dry.stdout.split("\n").map((l) => JSON.parse(l).headers);
        // With a key, a third request checks it (GET /v1/payers?limit=1).
        expect(headers).toEqual(key ? Array(3).fill({ "x-api-key": "***" }) : [{}, {}]);
      },
    );

    it("a 403 from the checks without a key asks for one (exit 3)", async () => {
      const s = createServer((_req, res) => {
        res.writeHead(403, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: "Not authenticated" }));
      });
      await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
      try {
        const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
        const r = await runInProcess(["--api-url", url, "health"], { env: TABLE_ENV });
        expect(r.exitCode).toBe(3);
        expect(r.stderr).toContain("error: the API needs a key (403: Not authenticated)");
      } finally {
        await new Promise((resolve) => s.close(resolve));
      }
    });

    it("table output when not ready", async () => {
      ready = 503;
      const r = await runInProcess(["--api-url", base, "health"], { env: TABLE_ENV });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/^\/ready\s+503\s+\{"status":"unavailable"\}$/m);
    });
  });

  it("a key check that never answers: the table still shows /health and /ready (finding 23)", async () => {
    const s = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/health") return res.end(JSON.stringify({ status: "ok" }));
      if (req.url === "/ready") {
        res.statusCode = 503;
        return res.end(JSON.stringify({ status: "unavailable" }));
      }
      // /v1/payers?limit=1 hangs: the client's timeout ends it.
    });
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
      const env = { ...TABLE_ENV, COVERAGE_API_KEY: "sk-test-health-hang" };
      const r = await runInProcess(["--api-url", url, "--timeout", "300", "health"], { env });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/^\/health\s+200\s/m);
      expect(r.stdout).toMatch(/^\/ready\s+503\s/m);
      expect(r.stdout).toMatch(/^key \(\/v1\/payers\?limit=1\)\s+no answer\s+\S/m);
      expect(r.stderr).toMatch(/time/i);
      const json = await runInProcess(["--api-url", url, "--timeout", "300", "health", "--json"], {
        env,
      });
      expect(JSON.parse(json.stdout).key).toMatchObject({ status: null, body: null });
    } finally {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  it("nothing listening: exit 1 with a message, no stack trace", async () => {
    const r = await runInProcess(["--api-url", "http://127.0.0.1:9", "health"], { env: TABLE_ENV });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/connect|refused/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
