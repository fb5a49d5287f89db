import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import { HTTP_DATA, sendRaw, startServe, type ServeProcess } from "../helpers/server.js";

const SERVE_KEY = "serve-key-SECRET-31337";
const FILES = path.join(path.dirname(HTTP_DATA), "files");

describe("coverage serve (with a key from COVERAGE_SERVE_KEY)", () => {
  let server: ServeProcess;
  let url: string;
  const api = (p: string, init: { method?: string; key?: string; body?: string } = {}) =>
    sendRaw(url, p, { key: SERVE_KEY, ...init });

  beforeAll(async () => {
    server = await startServe(["--data", HTTP_DATA], { COVERAGE_SERVE_KEY: SERVE_KEY });
    url = server.url;
  });
  afterAll(async () => {
    await server.stop();
  });

  it("prints the base URL as the only stdout line", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.stdout()).toBe(`${url}\n`);
  });

  it("answers /health and /ready without a key, as JSON", async () => {
    const health = await sendRaw(url, "/health");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok" });
    expect(health.headers.get("content-type")).toBe("application/json");
    const ready = await sendRaw(url, "/ready");
    expect([ready.status, ready.body]).toEqual([200, { status: "ready" }]);
  });

  it("authenticates /v1: missing key 403, wrong key 401, right key 200", async () => {
    const missing = await sendRaw(url, "/v1/payers");
    expect([missing.status, missing.text]).toEqual([403, '{"detail":"Not authenticated"}']);
    const wrong = await sendRaw(url, "/v1/payers", { key: "nope" });
    expect([wrong.status, wrong.text]).toEqual([401, '{"detail":"Invalid API key"}']);
    const prefix = await sendRaw(url, "/v1/payers", { key: SERVE_KEY.slice(0, -1) });
    expect(prefix.status).toBe(401);
    const ok = await api("/v1/payers");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/json");
  });

  it.each([
    ["limit out of range", '{"limit": 500}', ["body", "limit"], "less_than_equal"],
    ["an unknown field", '{"bogus": 1}', ["body", "bogus"], "extra_forbidden"],
    [
      "an unknown nested field",
      '{"policies": {"zip": "1"}}',
      ["body", "policies", "zip"],
      "extra_forbidden",
    ],
    ["malformed JSON", '{"limit": }', ["body", 10], "json_invalid"],
    ["a trailing comma", '{"limit": 5,}', ["body", 12], "json_invalid"],
  ])("POST /v1/policies/filter with %s: 422 at %j", async (_name, body, loc, type) => {
    const r = await api("/v1/policies/filter", { method: "POST", body });
    expect(r.status).toBe(422);
    const detail = (r.body as { detail: Array<{ loc: unknown; type: string; msg: string }> })
      .detail;
    expect(detail[0]).toMatchObject({ loc, type });
    expect(typeof detail[0]!.msg).toBe("string");
  });

  it("validates query parameters: 422 with loc [query, limit]", async () => {
    const r = await api("/v1/payers?limit=0");
    expect(r.status).toBe(422);
    expect((r.body as { detail: Array<{ loc: unknown }> }).detail[0]!.loc).toEqual([
      "query",
      "limit",
    ]);
  });

  it("takes array query parameters as repeated keys", async () => {
    const r = await api("/v1/lobs?lobs=commercial&lobs=medicaid&limit=100");
    const lobs = (r.body as { data: Array<{ lob: string }> }).data.map((l) => l.lob);
    expect(new Set(lobs)).toEqual(new Set(["commercial", "medicaid"]));
  });

  it("404s: unknown path, unknown policy", async () => {
    expect((await api("/nope")).text).toBe('{"detail":"Not Found"}');
    expect((await api("/v1/nope")).status).toBe(404);
    const r = await api("/v1/policies/x/y/2020-01-01");
    expect([r.status, r.body]).toEqual([404, { detail: "Policy not found" }]);
  });

  it("405 for a wrong method, with Allow", async () => {
    const get = await api("/v1/policies/filter");
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    const post = await api("/v1/payers", { method: "POST", body: "{}" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET"]);
    expect(post.body).toEqual({ detail: "Method Not Allowed" });
  });

  it("serves a policy with slashes in its id", async () => {
    const r = await api("/v1/policies/acme/sub/ACM106/2025-01-01");
    expect(r.status).toBe(200);
    expect((r.body as { policy_id: string }).policy_id).toBe("acme/sub/ACM106/2025-01-01");
  });

  it("hands out signed links on the same server that serve the file, streamed with its type and length", async () => {
    const r = await api("/v1/policies/acme/ACM101/2025-01-01/download-url?variant=display");
    expect(r.status).toBe(200);
    const link = r.body as { url: string; content_type: string; filename: string };
    expect(link.url.startsWith(`${url}/files/`)).toBe(true);
    expect(link.url).toMatch(/[?&]signature=[0-9a-f]{64}/);
    expect(link).toMatchObject({ content_type: "application/pdf", filename: "ACM101-01.pdf" });

    // No key needed: the signature stands in for it.
    const file = await fetch(link.url);
    const bytes = Buffer.from(await file.arrayBuffer());
    const expected = readFileSync(path.join(FILES, "p1.pdf"));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-length")).toBe(String(expected.length));
    expect(bytes.equals(expected)).toBe(true);

    const text = (await api("/v1/policies/acme/ACM101/2025-01-01/download-url?variant=text"))
      .body as { url: string; content_type: string };
    const md = await fetch(text.url);
    expect(md.headers.get("content-type")).toBe("text/markdown");
    expect(await md.text()).toBe(readFileSync(path.join(FILES, "p1.md"), "utf8"));
  });

  it("refuses tampered links with 403", async () => {
    const link = (await api("/v1/policies/acme/ACM101/2025-01-01/download-url")).body as {
      url: string;
    };
    const u = new URL(link.url);
    const tamper = (name: string, value: string) => {
      const t = new URL(u);
      t.searchParams.set(name, value);
      return t.href;
    };
    const sig = u.searchParams.get("signature")!;
    const cases = [
      tamper("signature", (sig[0] === "a" ? "b" : "a") + sig.slice(1)),
      tamper("expires", String(Number(u.searchParams.get("expires")) + 3600)),
      tamper("variant", "text"),
      link.url.replace("/ACM101/", "/ACM102/"),
      tamper("signature", ""),
    ];
    for (const bad of cases) {
      const r = await fetch(bad);
      expect(r.status, bad).toBe(403);
      expect(await r.json()).toEqual({ detail: "Invalid download link signature" });
    }
  });

  it("404 when the variant has no stored file", async () => {
    const r = await api("/v1/policies/acme/ACM102/2025-01-01/download-url?variant=text");
    expect([r.status, r.body]).toEqual([404, { detail: "No file stored for this policy" }]);
  });

  it("the CLI with a wrong key gets exit 3 and the server's detail", async () => {
    const r = await runInProcess(["--api-url", url, "payers"], {
      env: { COVERAGE_API_KEY: "wrong-key" },
    });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain("Invalid API key");
  });

  it("logs one access line per request on stderr: method, path, status, ms; no key, signatures masked", async () => {
    await api("/v1/payers?limit=2");
    const link = (await api("/v1/policies/acme/ACM101/2025-01-01/download-url")).body as {
      url: string;
    };
    await (await fetch(link.url)).arrayBuffer();
    // The server logs a request once its answer is out, so the line may reach us after the
    // answer did: wait for it (bounded) instead of racing it.
    const logged = (line: RegExp) =>
      vi.waitFor(() => expect(server.stderr()).toMatch(line), { timeout: 15_000, interval: 20 });
    await logged(/^GET \/v1\/payers\?limit=2 200 \d+ ms$/m);
    await logged(
      /^GET \/files\/acme\/ACM101\/2025-01-01\?variant=display&expires=\d+&signature=\*\*\* 200 \d+ ms$/m,
    );
    const log = server.stderr();
    expect(log).not.toContain(new URL(link.url).searchParams.get("signature")!);
    expect(log).not.toContain(SERVE_KEY);
  });
});

describe("coverage serve --sandbox", () => {
  let server: ServeProcess;

  beforeAll(async () => {
    server = await startServe(["--sandbox", "--data", HTTP_DATA]);
  });
  afterAll(async () => {
    await server.stop();
  });

  it("list endpoints ignore limit and offset: the first 20, reported as limit 20 offset 0", async () => {
    const all = await sendRaw(server.url, "/v1/policies/filter", {
      method: "POST",
      key: "a",
      body: '{"limit": 1, "offset": 3}',
    });
    const page = all.body as {
      data: Array<{ policy_id: string }>;
      limit: number;
      offset: number;
      has_more: boolean;
    };
    expect(page.data).toHaveLength(20);
    expect(page).toMatchObject({ limit: 20, offset: 0, has_more: true });
    const first = await sendRaw(server.url, "/v1/policies/filter", {
      method: "POST",
      key: "a",
      body: "{}",
    });
    expect(page.data).toEqual((first.body as typeof page).data);

    const payers = await sendRaw(server.url, "/v1/payers?limit=1&offset=2", { key: "a" });
    expect(payers.body).toMatchObject({ limit: 20, offset: 0, has_more: false });
    expect((payers.body as { data: unknown[] }).data).toHaveLength(4);
  });

  it("still validates: 422 for a limit out of range", async () => {
    const r = await sendRaw(server.url, "/v1/payers?limit=1000", { key: "a" });
    expect(r.status).toBe(422);
  });

  it("--all against the sandbox stops with a warning and no duplicates", async () => {
    const r = await runInProcess(["--api-url", server.url, "search", "--all", "--json"], {
      env: { COVERAGE_API_KEY: "cli-key" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const got = (JSON.parse(r.stdout) as { data: Array<{ policy_id: string }> }).data.map(
      (p) => p.policy_id,
    );
    expect(got).toHaveLength(20);
    expect(new Set(got).size).toBe(20);
    expect(r.stderr).toContain("ignores paging");
  });

  it("100 requests per minute per key, then 429 with Retry-After seconds; other keys unaffected", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++)
      statuses.push((await sendRaw(server.url, "/v1/payers", { key: "rl" })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await sendRaw(server.url, "/v1/payers", { key: "rl" });
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect((await sendRaw(server.url, "/v1/payers", { key: "other" })).status).toBe(200);
    expect((await sendRaw(server.url, "/health")).status).toBe(200);
  });
});

describe("coverage serve: options and lifecycle", () => {
  it("--api-key KEY on the command line works too", async () => {
    const s = await startServe(["--api-key", "flag-key", "--data", HTTP_DATA]);
    try {
      expect((await sendRaw(s.url, "/v1/payers")).status).toBe(403);
      expect((await sendRaw(s.url, "/v1/payers", { key: "flag-key" })).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it("no key set: /v1 is open", async () => {
    const s = await startServe(["--data", HTTP_DATA]);
    try {
      expect((await sendRaw(s.url, "/v1/payers")).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it("SIGTERM shuts down gracefully with exit 0", async () => {
    const s = await startServe(["--data", HTTP_DATA]);
    expect(await s.stop("SIGTERM")).toBe(0);
  });

  it("SIGINT (Ctrl-C) shuts down with exit 130", async () => {
    const s = await startServe(["--data", HTTP_DATA]);
    await sendRaw(s.url, "/health");
    expect(await s.stop("SIGINT")).toBe(130);
  });

  it("a port in use: exit 1 saying so", async () => {
    const s = await startServe(["--data", HTTP_DATA]);
    try {
      const port = new URL(s.url).port;
      const r = await runInProcess(["serve", "--port", port, "--data", HTTP_DATA]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain("the port is in use");
      expect(r.stdout).toBe("");
    } finally {
      await s.stop();
    }
  });

  it.each([["70000"], ["abc"], ["-1"]])("--port %s: exit 2", async (port) => {
    const r = await runInProcess(["serve", "--port", port, "--data", HTTP_DATA]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("port");
  });

  it("a bad dataset: exit 2 naming the file, before listening", async () => {
    const r = await runInProcess(["serve", "--port", "0", "--data", "/nonexistent/data.json"]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("/nonexistent/data.json");
    expect(r.stdout).toBe("");
  });

  // An empty --api-key would turn authentication off; an empty --host would bind every address.
  it.each([["--api-key"], ["--host"], ["--port"]])(
    "%s '': exit 2, nothing served",
    async (flag) => {
      const r = await runInProcess(["serve", "--port", "0", flag, "", "--data", HTTP_DATA]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${flag} was given an empty value`);
      expect(r.stdout).toBe("");
    },
  );

  it("--api-url does not apply to serve: exit 2", async () => {
    const r = await runInProcess(["serve", "--api-url", "https://x.example", "--port", "0"]);
    expect(r.exitCode, r.stderr).toBe(2);
  });
});
