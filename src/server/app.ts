import { createReadStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { ApiRequest, ApiResponse, QueryPairs } from "../api/request.js";
import { redactUrl } from "../backend/http-redact.js";
import { hasStoredFile, resolveStoredFile, type LoadedDataset } from "../dataset/load.js";
import { buildDownloadLink, findStoredFile } from "../engine/download.js";
import { createBudget } from "../engine/budget.js";
import { FilterCache } from "../engine/filter-cache.js";
import { handleApiRequest, NO_FILE, NOT_FOUND, unprocessable } from "../engine/router.js";
import { isSnapshotLocked } from "../snapshot/locked.js";
import { checkApiKey, createRateLimiter, type RateLimiter } from "./guard.js";
import { findInvalidUtf8, jsonInvalidDetail, parseJsonText } from "./json-body.js";
import { createLinkSigner, FILES_PREFIX, type LinkSigner } from "./links.js";

/** Sandbox mode: list endpoints answer this many items from offset 0, whatever was asked. */
const SANDBOX_PAGE_SIZE = 20;

/** A Host header fit to build links on: a name or IPv4, or a bracketed IPv6, and a port. */
const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/;

/** Request bodies above this are refused (a filter body is a few hundred bytes). */
const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * The engine's time per API request, after which it answers 422: the engine runs on the event
 * loop, so this bounds how long `/health`, other clients and SIGTERM can wait behind one request.
 */
export const REQUEST_BUDGET_MS = 2_000;

export interface ServeOptions {
  dataset: LoadedDataset;
  /**
   * The dataset as its file is now (openLiveDataset): asked before each request; a new one
   * replaces `dataset` and drops what was kept of the old. Absent: `dataset` never changes.
   */
  current?: (() => Promise<LoadedDataset>) | undefined;
  /** "Today" for the engine, asked per request so a long-running server follows the clock. */
  today: () => string;
  /** Key every `/v1` request must carry; undefined = no auth. */
  apiKey?: string | undefined;
  sandbox: boolean;
  /** Base URL of this server as printed (links are built on it). */
  baseUrl: () => string;
  /** Bound to a wildcard address: links use the request's Host header, as clients reached us. */
  linksFromHostHeader?: boolean | undefined;
  /** One access-log line per request (never the key; signatures masked). */
  log?: ((line: string) => void) | undefined;
  signer?: LinkSigner;
  limiter?: RateLimiter;
  /** The engine's time budget per request (ms); REQUEST_BUDGET_MS by default. */
  requestBudgetMs?: number | undefined;
}

type Route = { kind: "check" } | { kind: "file" } | { kind: "api"; list: boolean };

/** Which handler a path belongs to and the methods it takes (routing comes before auth). */
function route(pathname: string): { route: Route; methods: string[] } | undefined {
  const p = pathname.replace(/\/+$/, "") || "/";
  if (p === "/health" || p === "/ready") return { route: { kind: "check" }, methods: ["GET"] };
  if (p.startsWith(FILES_PREFIX) && p.length > FILES_PREFIX.length)
    return { route: { kind: "file" }, methods: ["GET"] };
  if (p === "/v1/policies/filter") return { route: { kind: "api", list: true }, methods: ["POST"] };
  if (p === "/v1/payers" || p === "/v1/lobs" || p === "/v1/policies/updates")
    return { route: { kind: "api", list: true }, methods: ["GET"] };
  if (p.startsWith("/v1/policies/") && p.length > "/v1/policies/".length)
    return { route: { kind: "api", list: false }, methods: ["GET"] };
  return undefined;
}

/** The response header that says the API's today (YYYY-MM-DD); read by the HTTP client. */
export const TODAY_HEADER = "coverage-today";

function sendJson(
  res: ServerResponse,
  reply: ApiResponse,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...reply.headers,
    ...extra,
  });
  res.end(text);
}

/** The body, or undefined when it is (or says it will be) over MAX_REQUEST_BYTES. */
async function readRequestBody(req: IncomingMessage): Promise<Buffer | undefined> {
  // A declared length over the limit is refused before a byte is read: a client that declares
  // 200 MB and sends a little would otherwise wait for the socket timeout with no answer.
  if (Number(req.headers["content-length"]) > MAX_REQUEST_BYTES) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Sandbox: the same request asking for the fixed page (the envelope then tells what was served). */
function sandboxRequest(req: ApiRequest): ApiRequest {
  if (req.method === "POST") {
    const body = (req.body ?? {}) as Record<string, unknown>;
    return { ...req, body: { ...body, limit: SANDBOX_PAGE_SIZE, offset: 0 } };
  }
  const query: QueryPairs = req.query.filter(([k]) => k !== "limit" && k !== "offset");
  query.push(["limit", String(SANDBOX_PAGE_SIZE)], ["offset", "0"]);
  return { ...req, query };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The request handler of `coverage serve`: the spec's API over the engine's `handleApiRequest`. */
export function createServeHandler(
  options: ServeOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { apiKey, sandbox } = options;
  let dataset = options.dataset;
  const signer = options.signer ?? createLinkSigner();
  const limiter = options.limiter ?? createRateLimiter();
  // Kept for one state of the dataset: a filter's ranked list serves its next pages, and the
  // same filter from other clients, at the cost of the page. A changed file starts a new one.
  let filterCache = new FilterCache();

  async function serveFile(res: ServerResponse, pathname: string, query: URLSearchParams) {
    const check = signer.verify(pathname, query);
    if (!check.ok) return sendJson(res, { status: 403, body: { detail: check.detail } });
    const version = dataset.db.byId.get(check.policyId);
    if (!version) return sendJson(res, { status: 404, body: NOT_FOUND });
    const file = findStoredFile(version, check.variant);
    if (!file) return sendJson(res, { status: 404, body: NO_FILE });
    // Checked again at fetch time: the link may be older than a symbolic link put there since.
    const stored = resolveStoredFile(dataset, file);
    if (!stored) return sendJson(res, { status: 404, body: NO_FILE });
    const { path: abs, size } = stored;
    const link = buildDownloadLink(version, check.variant, "");
    res.writeHead(200, {
      "content-type": link.content_type,
      "content-length": size,
      "content-disposition": `attachment; filename="${link.filename}"`,
      "cache-control": "no-store",
    });
    await pipeline(createReadStream(abs), res).catch((err: NodeJS.ErrnoException) => {
      // The client hung up (curl closes as soon as it has the last byte); the access log says
      // whether the whole file had been handed over. Anything else is the server's problem.
      if (err.code !== "ERR_STREAM_PREMATURE_CLOSE") throw err;
    });
  }

  async function serveApi(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    query: QueryPairs,
    list: boolean,
  ) {
    const given = headerValue(req, "x-api-key");
    const denied = checkApiKey(apiKey, given);
    if (denied) return sendJson(res, denied);
    if (sandbox) {
      const taken = limiter.take(given ?? "");
      if (!taken.ok)
        return sendJson(
          res,
          { status: 429, body: { detail: "Rate limit exceeded: 100 requests per minute" } },
          { "retry-after": String(taken.retryAfterSeconds) },
        );
    }
    let body: unknown;
    let bodyAsWritten: unknown;
    if (req.method === "POST") {
      const bytes = await readRequestBody(req);
      if (bytes === undefined)
        return sendJson(
          res,
          { status: 413, body: { detail: "Request body too large" } },
          { connection: "close" },
        );
      // Not UTF-8: a 422 saying where, rather than decoding it with U+FFFD in place.
      const badByte = findInvalidUtf8(bytes);
      if (badByte)
        return sendJson(res, unprocessable([jsonInvalidDetail(badByte.pos, badByte.error)]));
      const text = bytes.toString("utf8");
      if (text.trim() !== "") {
        const parsed = parseJsonText(text);
        if (!parsed.ok)
          return sendJson(res, unprocessable([jsonInvalidDetail(parsed.pos, parsed.error)]));
        body = parsed.value;
        bodyAsWritten = parsed.asWritten;
      }
    }
    const host = headerValue(req, "host");
    const base =
      options.linksFromHostHeader && host && HOST_HEADER.test(host)
        ? `http://${host}`
        : options.baseUrl().replace(/\/+$/, "");
    const ctx = {
      db: dataset.db,
      today: options.today(),
      linkFor: (version: { policy_id: string }, variant: "display" | "text") =>
        base + signer.sign(version.policy_id, variant),
      hasFile: (file: string) => hasStoredFile(dataset, file),
      // From here on the work is the engine's (the body is in): the budget starts now.
      budget: createBudget(options.requestBudgetMs ?? REQUEST_BUDGET_MS),
      filterCache,
    };
    const apiReq: ApiRequest = {
      method: req.method as "GET" | "POST",
      path: pathname,
      query,
      body,
      ...(bodyAsWritten === undefined ? {} : { bodyAsWritten }),
    };
    let reply = handleApiRequest(ctx, apiReq);
    if (sandbox && list && reply.status === 200)
      reply = handleApiRequest(ctx, sandboxRequest(apiReq));
    // The day this API answered for (a dataset's as_of, --today): a client works out statuses
    // and the day `code` and `matrix` look at from it, not from its own clock.
    sendJson(res, reply, { [TODAY_HEADER]: ctx.today });
  }

  return (req, res) => {
    const started = performance.now();
    const rawUrl = req.url ?? "/";
    res.on("close", () => {
      const ms = Math.round(performance.now() - started);
      // writableEnded: the whole answer was handed over; a client closing before the last
      // flush is not an aborted request.
      const status = res.writableEnded ? String(res.statusCode) : `${res.statusCode} aborted`;
      options.log?.(`${req.method} ${redactUrl(rawUrl, [apiKey])} ${status} ${ms} ms`);
    });
    const q = rawUrl.indexOf("?");
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const search = new URLSearchParams(q < 0 ? "" : rawUrl.slice(q + 1));
    const found = pathname.startsWith("/") ? route(pathname) : undefined;

    const handle = async () => {
      if (!found) return sendJson(res, { status: 404, body: { detail: "Not Found" } });
      const now = await options.current?.();
      if (now && now !== dataset) {
        dataset = now;
        filterCache = new FilterCache();
      }
      if (!found.methods.includes(req.method ?? ""))
        return sendJson(
          res,
          { status: 405, body: { detail: "Method Not Allowed" } },
          { allow: found.methods.join(", ") },
        );
      const { route: r } = found;
      if (r.kind === "file") return serveFile(res, pathname, search);
      if (r.kind === "check") {
        const ctx = { db: dataset.db, today: options.today(), linkFor: () => "" };
        // The day too: a client learns it from `/health` (no key) before a date defaults to it.
        const reply = handleApiRequest(ctx, { method: "GET", path: pathname, query: [] });
        return sendJson(res, reply, { [TODAY_HEADER]: ctx.today });
      }
      return serveApi(req, res, pathname, [...search], r.list);
    };
    handle().catch((err: unknown) => {
      options.log?.(`error: ${err instanceof Error ? err.message : String(err)}`);
      if (res.headersSent) res.destroy();
      // Another process holds the snapshot past the readers' wait: nothing is wrong here.
      else if (isSnapshotLocked(err))
        sendJson(
          res,
          {
            status: 503,
            body: { detail: "The data is being written by another process; try again" },
          },
          { "retry-after": "5" },
        );
      else sendJson(res, { status: 500, body: { detail: "Internal Server Error" } });
    });
  };
}
