import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ACCEPTANCE_DATA,
  CASES,
  expectAnswer,
  ID,
  KNEE_PATH,
} from "../fixtures/acceptance/cases.js";
import { runInProcess } from "../helpers/run-cli.js";
import { json, startScripted, sendRaw, startServe, type ServeProcess } from "../helpers/server.js";

// An acceptance checker's view of `coverage serve`: the process started as a checker would
// (`--port 0 --data FILE [--today D] [--api-key K] [--sandbox]`), raw HTTP only, answers
// compared with values worked out by hand from rules.md.

const KEY = "acceptance-key-7f3a";
const FILES = path.join(path.dirname(ACCEPTANCE_DATA), "files");

describe("coverage serve --data <acceptance dataset> --api-key K (today = as_of)", () => {
  let server: ServeProcess;
  const api = (url: string, init: { method?: string; body?: string } = {}) =>
    sendRaw(server.url, url, { key: KEY, ...init });

  beforeAll(async () => {
    server = await startServe(["--data", ACCEPTANCE_DATA, "--api-key", KEY]);
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const reply = await api(c.url, {
      method: c.method,
      ...(c.json !== undefined ? { body: JSON.stringify(c.json) } : {}),
    });
    expect(reply.headers.get("content-type")).toBe("application/json");
    expectAnswer(c, reply.status, reply.body);
  });

  it("/health and /ready: 200 with their bodies, no key needed", async () => {
    const health = await sendRaw(server.url, "/health");
    const ready = await sendRaw(server.url, "/ready");
    expect([health.status, health.text, ready.status, ready.text]).toEqual([
      200,
      '{"status":"ok"}',
      200,
      '{"status":"ready"}',
    ]);
  });

  it.each([
    ["GET", "/v1/payers"],
    ["GET", "/v1/lobs"],
    ["GET", "/v1/policies/updates"],
    ["GET", `/v1/policies/${KNEE_PATH}`],
    ["GET", `/v1/policies/${KNEE_PATH}/download-url`],
    ["GET", "/v1/policies/nope"],
    ["POST", "/v1/policies/filter"],
  ])("%s %s: 403 without the key, 401 with a wrong one", async (method, url) => {
    const body = method === "POST" ? "{}" : undefined;
    const missing = await sendRaw(server.url, url, { method, ...(body ? { body } : {}) });
    expect([missing.status, missing.text]).toEqual([403, '{"detail":"Not authenticated"}']);
    const wrong = await sendRaw(server.url, url, {
      method,
      key: "not-the-key",
      ...(body ? { body } : {}),
    });
    expect([wrong.status, wrong.text]).toEqual([401, '{"detail":"Invalid API key"}']);
    expect(missing.text + wrong.text).not.toContain(KEY);
  });

  it("malformed JSON: 422 json_invalid at the character offset", async () => {
    const reply = await api("/v1/policies/filter", { method: "POST", body: '{"limit": 5,}' });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [
        {
          loc: ["body", 12],
          msg: "JSON decode error",
          type: "json_invalid",
          input: {},
          ctx: { error: "Expecting property name enclosed in double quotes" },
        },
      ],
    });
  });

  it.each([
    ["[]", []],
    ["null", null],
    ['"text"', "text"],
  ])("a body that is not an object (%s): 422 at loc [body]", async (text, input) => {
    const reply = await api("/v1/policies/filter", { method: "POST", body: text });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ detail: [{ loc: ["body"], input }] });
  });

  it("a signed link serves the file with its content type and safe filename", async () => {
    for (const [variant, file, type, name] of [
      ["display", "cpb.pdf", "application/pdf", "CPB_0001__.pdf"],
      ["text", "cpb.md", "text/markdown", "CPB_0001__.md"],
    ] as const) {
      const link = (await api(`/v1/policies/${KNEE_PATH}/download-url?variant=${variant}`))
        .body as { url: string };
      expect(link.url.startsWith(`${server.url}/`)).toBe(true);
      const res = await fetch(link.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(readFileSync(path.join(FILES, file)));
    }
  });

  it("a tampered link is refused with 403 (signature, expiry, variant, policy id)", async () => {
    const { url } = (await api(`/v1/policies/${KNEE_PATH}/download-url`)).body as { url: string };
    const u = new URL(url);
    const variants: string[] = [];
    const sig = u.searchParams.get("signature") ?? "";
    for (const [key, value] of [
      ["signature", `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`],
      ["expires", String(Number(u.searchParams.get("expires")) + 3600)],
      ["variant", "text"],
    ] as const) {
      const t = new URL(url);
      t.searchParams.set(key, value);
      variants.push(t.href);
    }
    variants.push(url.replace(encodeURIComponent("sub dir"), "other"));
    for (const v of variants) {
      const res = await fetch(v);
      expect(res.status, v).toBe(403);
      expect((await res.json()) as unknown).toEqual({ detail: "Invalid download link signature" });
    }
    // The untouched link still works.
    expect((await fetch(url)).status).toBe(200);
  });

  it("a download link for a version without that file is a 404, not a link", async () => {
    const reply = await api(`/v1/policies/${ID.sleep}/download-url?variant=text`);
    expect([reply.status, reply.text]).toEqual([
      404,
      '{"detail":"No file stored for this policy"}',
    ]);
  });
});

describe("coverage serve --sandbox --today 2026-05-20 --api-key K", () => {
  let server: ServeProcess;
  // Every /v1 request counts towards the sandbox's 100 a minute.
  let sent = 0;
  const api = (url: string, init: { method?: string; body?: string } = {}) => {
    sent++;
    return sendRaw(server.url, url, { key: KEY, ...init });
  };

  beforeAll(async () => {
    server = await startServe([
      "--data",
      ACCEPTANCE_DATA,
      "--sandbox",
      "--today",
      "2026-05-20",
      "--api-key",
      KEY,
    ]);
  });
  afterAll(async () => {
    await server.stop();
  });

  it("--today moves the updates window: days=10 is 2026-05-10..2026-05-20, later versions excluded", async () => {
    const reply = await api("/v1/policies/updates?days=10&limit=1&offset=3");
    expect(reply.status).toBe(200);
    const body = reply.body as {
      data: Array<{ policy_id: string; payer_id: string; change_type: string }>;
    };
    // Sandbox: limit and offset ignored, the fixed first page is served.
    expect(body).toMatchObject({ limit: 20, offset: 0, has_more: false });
    expect(body.data.map((d) => `${d.policy_id} ${d.payer_id} ${d.change_type}`)).toEqual([
      `${ID.three} BCA new`,
      `${ID.three} BCB new`,
      `${ID.three} ENDED new`,
      `${ID.multi1} CMS new`,
    ]);
  });

  it("list endpoints ignore limit and offset", async () => {
    const lobs = (await api("/v1/lobs?limit=1&offset=5")).body as { data: unknown[] };
    expect(lobs).toMatchObject({ limit: 20, offset: 0, has_more: false });
    expect(lobs.data).toHaveLength(12);
    const filter = await api("/v1/policies/filter", {
      method: "POST",
      body: JSON.stringify({ limit: 1, offset: 3 }),
    });
    expect(filter.body).toMatchObject({ limit: 20, offset: 0, has_more: false });
  });

  it("over 100 requests in a minute: 429 with Retry-After seconds; the checks stay open", async () => {
    const statuses: number[] = [];
    while (sent < 100) statuses.push((await api("/v1/payers")).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const limited = await api("/v1/payers");
    expect(limited.status).toBe(429);
    const retryAfter = limited.headers.get("retry-after") ?? "";
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect((await sendRaw(server.url, "/health")).status).toBe(200);
  });
});

describe("the client against a scripted server: download links", () => {
  it.each([["file:///etc/hostname"], ["FILE:///etc/passwd"], ["ftp://127.0.0.1/x.pdf"]])(
    "a %s link from a server is refused (exit 1), nothing read or written",
    async (url) => {
      const server = await startScripted((_req, res) =>
        json(res, 200, { url, content_type: "application/pdf", filename: "x.pdf" }),
      );
      const cwd = mkdtempSync(path.join(os.tmpdir(), "coverage-acceptance-"));
      try {
        for (const output of [[], ["-o", "-"]]) {
          const r = await runInProcess(
            ["--api-url", server.url, "download", "a/b/2026-01-01", ...output],
            { env: { COVERAGE_API_KEY: KEY }, cwd },
          );
          expect(r.exitCode).toBe(1);
          expect(r.stdout).toBe("");
          expect(r.stderr).toMatch(/download link/);
          expect(r.stderr).not.toContain(KEY);
        }
        expect(readdirSync(cwd)).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );
});
