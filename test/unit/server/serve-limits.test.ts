import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDataset, type LoadedDataset } from "../../../src/dataset/load.js";
import { createServeHandler, type ServeOptions } from "../../../src/server/app.js";
import { listen, type RunningServer, type ServerLimits } from "../../../src/server/listen.js";
import { HTTP_DATA } from "../../helpers/server.js";

// A real `coverage serve` server (its handler and listener) on 127.0.0.1, with limits short
// enough for a test. Waits are bounds on how long the test may take, never measurements: each
// one holds until the server acts, however slowly the machine runs.

const BIG_FILE_BYTES = 48 * 1024 * 1024;
let dir: string;
let big: LoadedDataset;
let small: LoadedDataset;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "serve-limits-"));
  // More than loopback's socket buffers hold, so a client that stops reading stalls the writes.
  writeFileSync(path.join(dir, "big.pdf"), Buffer.alloc(BIG_FILE_BYTES, 0x25));
  writeFileSync(
    path.join(dir, "dataset.json"),
    JSON.stringify({
      format: "coverage-dataset",
      version: 1,
      as_of: "2026-06-01",
      payers: [{ payer_id: "P1", display_name: "One" }],
      lobs: [{ lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial", state: null }],
      policies: [
        {
          policy_id: "t/big/2020-01-01",
          policy_number: "BIG-1",
          title: "A big file",
          effective_from_date: "2020-01-01",
          effective_to_date: null,
          file_url: "https://example.org/big.pdf",
          file_type: "pdf",
          listing_url: "https://example.org/",
          summary: null,
          files: { display: "big.pdf" },
          applicability: [{ lob_id: "P1_commercial_US", from: "2020-01-01", to: null }],
          codes: [{ code_system: "ICD10CM", code: "E11.9", relationship: "COVERS" }],
        },
      ],
    }),
  );
  big = await loadDataset(path.join(dir, "dataset.json"));
  small = await loadDataset(HTTP_DATA);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startServer(
  dataset: LoadedDataset,
  limits: Partial<ServerLimits> = {},
  options: Partial<ServeOptions> = {},
): Promise<RunningServer & { log: string[] }> {
  const log: string[] = [];
  let url = "";
  const handler = createServeHandler({
    dataset,
    today: () => "2026-06-01",
    sandbox: false,
    baseUrl: () => url,
    log: (line) => log.push(line),
    ...options,
  });
  const server = await listen(handler, "127.0.0.1", 0, limits);
  url = server.url;
  return { ...server, log };
}

const portOf = (url: string) => Number(new URL(url).port);

/** A raw TCP client; `closed` settles when the server ends or resets the connection. */
async function connect(url: string): Promise<{ socket: net.Socket; closed: Promise<string> }> {
  const socket = net.connect(portOf(url), "127.0.0.1");
  let received = "";
  socket.on("data", (d: Buffer) => (received += d.toString("latin1")));
  const closed = new Promise<string>((resolve) => {
    socket.on("close", () => resolve(received));
    socket.on("error", () => {});
  });
  await once(socket, "connect");
  return { socket, closed };
}

/** Resolves when `check` holds, polling; fails the test after `ms`. */
async function eventually(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One request on its own connection: status and body text. */
function send(
  url: string,
  pathname: string,
  body?: Buffer | string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url + pathname,
      { method: body === undefined ? "GET" : "POST", agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("serve: clients that stop sending or reading are cut", () => {
  it("a request whose headers never end is closed after headersTimeout", async () => {
    const server = await startServer(small, {
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      checkIntervalMs: 100,
    });
    try {
      const { socket, closed } = await connect(server.url);
      socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      const answer = await closed;
      expect(answer === "" || answer.startsWith("HTTP/1.1 408")).toBe(true);
    } finally {
      await server.close();
    }
  }, 30_000);

  it("a body declared over 1 MiB gets 413 at once, without waiting for its bytes (findings reliability-2 S2)", async () => {
    // Long timeouts: without the check the answer could only come from the socket's closing.
    const server = await startServer(small, { requestTimeoutMs: 60_000, idleTimeoutMs: 60_000 });
    try {
      const { socket, closed } = await connect(server.url);
      socket.write(
        "POST /v1/policies/filter HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n" +
          `content-length: ${200 << 20}\r\n\r\n` +
          "{".repeat(65_536),
      );
      await eventually(() => socket.bytesRead > 0);
      socket.destroy();
      expect(await closed).toMatch(/^HTTP\/1\.1 413 [^\n]*\r\n[\s\S]*"Request body too large"/);
    } finally {
      await server.close();
    }
  }, 30_000);

  it("a download whose client stopped reading is destroyed after the idle timeout", async () => {
    const server = await startServer(big, { idleTimeoutMs: 500 });
    try {
      const link = JSON.parse(
        (await send(server.url, "/v1/policies/t/big/2020-01-01/download-url")).text,
      ) as { url: string };
      const { socket, closed } = await connect(server.url);
      socket.pause();
      const target = new URL(link.url);
      socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      // The server gives up on the stalled write: its access log says the answer was cut.
      await eventually(() => server.log.some((l) => /^GET \/files\/.* 200 aborted/.test(l)));
      socket.destroy();
      await closed;
    } finally {
      await server.close();
    }
  }, 60_000);

  it("connections past maxConnections are closed as they arrive", async () => {
    const server = await startServer(small, { maxConnections: 2, keepAliveTimeoutMs: 30_000 });
    try {
      const held = [await connect(server.url), await connect(server.url)];
      // Each of the two is served (so accepted) and kept alive.
      for (const { socket } of held) {
        const answered = new Promise<void>((resolve) => socket.once("data", () => resolve()));
        socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        await answered;
      }
      const third = await connect(server.url);
      third.socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      expect(await third.closed).toBe("");
      held[0]!.socket.destroy();
      await held[0]!.closed;
      // Once one is gone a new client is served again (as soon as the server has seen it go).
      let status = 0;
      while (status !== 200)
        status = (await send(server.url, "/health").catch(() => null))?.status ?? 0;
      held[1]!.socket.destroy();
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe("serve: one heavy request cannot hold the server", () => {
  it("a request over its time budget gets 422 naming the budget; /health still answers", async () => {
    const server = await startServer(small, {}, { requestBudgetMs: 0 });
    try {
      const body = JSON.stringify({
        policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["97110", "97112"] }] } },
      });
      const r = await send(server.url, "/v1/policies/filter", body);
      expect(r.status).toBe(422);
      expect(JSON.parse(r.text)).toEqual({
        detail: [
          {
            loc: ["body"],
            msg:
              "Request needs more than this server's 0 ms of work per request: narrow it " +
              "(fewer codes, refs or words), or run it in-process with --local",
            type: "too_costly",
            ctx: { budget_ms: 0 },
          },
        ],
      });
      expect((await send(server.url, "/health")).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("serve: request bodies as written", () => {
  let server: RunningServer & { log: string[] };
  beforeAll(async () => (server = await startServer(small)));
  afterAll(() => server.close());

  it.each<[string, Buffer, number, string]>([
    [
      "a byte that starts no character",
      Buffer.concat([Buffer.from('{"policies": {"q": "'), Buffer.from([0xff]), Buffer.from('"}}')]),
      20,
      "'utf-8' codec can't decode byte 0xff in position 20: invalid start byte",
    ],
    [
      "a lead byte without its continuation",
      Buffer.concat([
        Buffer.from('{"policies": {"q": "ab'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}}'),
      ]),
      22,
      "'utf-8' codec can't decode byte 0xc3 in position 22: invalid continuation byte",
    ],
    [
      "an encoded surrogate",
      Buffer.concat([
        Buffer.from('{"policies": {"q": "'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}}'),
      ]),
      20,
      "'utf-8' codec can't decode byte 0xed in position 20: invalid continuation byte",
    ],
    [
      "a body cut inside a character",
      Buffer.concat([Buffer.from('{"policies": {"q": "'), Buffer.from([0xe2, 0x82])]),
      20,
      "'utf-8' codec can't decode bytes in position 20-21: unexpected end of data",
    ],
  ])("invalid UTF-8 (%s): 422 at its byte offset", async (_, bytes, pos, error) => {
    const r = await send(server.url, "/v1/policies/filter", bytes);
    expect(r.status).toBe(422);
    expect(JSON.parse(r.text)).toEqual({
      detail: [
        {
          loc: ["body", pos],
          msg: "JSON decode error",
          type: "json_invalid",
          input: {},
          ctx: { error },
        },
      ],
    });
  });

  it("valid UTF-8 beyond ASCII is read as it was sent", async () => {
    const r = await send(server.url, "/v1/policies/filter", '{"policies": {"q": "Ünïcödé ✓ 𝄞"}}');
    expect(r.status).toBe(200);
  });

  it.each<[string, unknown]>([
    ['{"limit": 1e400}', { loc: ["body", "limit"], input: "1e400" }],
    ['{"offset": -2E+999}', { loc: ["body", "offset"], input: "-2E+999" }],
    [
      '{"limit": 5, "offset": 1' + "0".repeat(400) + "}",
      { loc: ["body", "offset"], input: "1" + "0".repeat(400) },
    ],
  ])("%s: a number too large for a double is quoted as written", async (body, expected) => {
    const r = await send(server.url, "/v1/policies/filter", body);
    expect(r.status).toBe(422);
    const detail = (JSON.parse(r.text) as { detail: unknown[] }).detail;
    expect(detail).toEqual([
      { ...(expected as object), msg: "Input should be a finite number", type: "finite_number" },
    ]);
  });

  it("a string that reads like a huge number stays a string", async () => {
    const r = await send(
      server.url,
      "/v1/policies/filter",
      '{"policies": {"q": "1e400"}, "limit": "1e400"}',
    );
    expect(r.status).toBe(422);
    const detail = (JSON.parse(r.text) as { detail: Array<{ input: unknown; type: string }> })
      .detail;
    expect(detail).toEqual([expect.objectContaining({ input: "1e400", type: "int_parsing" })]);
  });

  it("random bytes as a body never get a 500 (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.json().map((t) => new TextEncoder().encode(t)),
          fc.string({ unit: "binary" }).map((t) => new TextEncoder().encode(`{"policies": ${t}}`)),
        ),
        async (bytes) => {
          const r = await send(server.url, "/v1/policies/filter", Buffer.from(bytes));
          expect([200, 422]).toContain(r.status);
        },
      ),
      { numRuns: 300 },
    );
    expect(server.log.filter((l) => / 500 /.test(l) || l.startsWith("error"))).toEqual([]);
  }, 120_000);
});
