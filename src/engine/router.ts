import type * as z from "zod";
import {
  ARRAY_QUERY_KEYS,
  DownloadQuery,
  FilterRequest,
  formatValidationDetail,
  safeParseBounded,
  LobsQuery,
  PayersQuery,
  UpdatesQuery,
  type DownloadVariant,
  type ValidationErrorItem,
} from "../contract/index.js";
import type { ApiRequest, ApiResponse, QueryPairs } from "../contract/api-request.js";
import { BudgetExceeded, type Budget } from "./budget.js";
import { listLobs, listPayers } from "./catalog.js";
import type { Db, PolicyRecord } from "./db.js";
import { buildPolicyDetail } from "./detail.js";
import { buildDownloadLink, findStoredFile } from "./download.js";
import { filterPolicies } from "./filter.js";
import type { FilterCache } from "./filter-cache.js";
import { listUpdates } from "./updates.js";

export interface EngineContext {
  db: Db;
  today: string;
  /** Where the transport serves a stored file (a `file://` URL in-process, signed HTTP via serve). */
  linkFor(version: PolicyRecord, variant: DownloadVariant, file: string): string;
  /** Whether a stored file is really there (the transport's I/O); without it, assumed so. */
  hasFile?(file: string): boolean;
  /** The request's time budget (`coverage serve`); none in-process. */
  budget?: Budget;
  /** A server's memo of filtered and ranked lists, for `db` only (it never changes while open). */
  filterCache?: FilterCache;
}

export const NOT_FOUND = { detail: "Policy not found" };
export const NO_FILE = { detail: "No file stored for this policy" };

const INTEGER = /^[+-]?\d+$/;

/** Query pairs as an object: array keys collect every value, others keep the last one. */
function queryObject(pairs: QueryPairs, typed = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of pairs) {
    const value = typed && INTEGER.test(raw) ? Number(raw) : raw;
    if (ARRAY_QUERY_KEYS.has(key)) ((out[key] as string[] | undefined) ??= []).push(raw);
    else out[key] = key === "limit" || key === "offset" || key === "days" ? value : raw;
  }
  return out;
}

/** A 422 response with the spec's body. */
export function unprocessable(detail: ValidationErrorItem[]): ApiResponse {
  return { status: 422, body: { detail } };
}

/**
 * Validates a body or query. `shown` is what the 422 items quote as `input`: for a query, the
 * strings as sent (`"0"`, not `0`), as the live FastAPI service reports them.
 */
function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: "body" | "query",
  shown: unknown = input,
): { ok: true; value: z.infer<S> } | { ok: false; response: ApiResponse } {
  const result = safeParseBounded(schema, input);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    response: unprocessable(formatValidationDetail(result.error, shown, [where])),
  };
}

function decodeSegments(path: string): string | null {
  try {
    return path.split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
}

/**
 * The answer to a request that ran out of its time budget: a 422 at `body`, not a 503, since
 * sending it again would cost the same (and clients retry a 503, three times for ours).
 */
function budgetExceeded(budgetMs: number): ApiResponse {
  return unprocessable([
    {
      loc: ["body"],
      msg:
        `Request needs more than this server's ${budgetMs} ms of work per request: narrow it ` +
        "(fewer codes, refs or words), or run it in-process with --local",
      type: "too_costly",
      ctx: { budget_ms: budgetMs },
    },
  ]);
}

/**
 * Answers one API request from the dataset, as the service of `spec/api.md` would; a request
 * that runs out of `ctx.budget` gets a 422 saying so.
 */
export function handleApiRequest(ctx: EngineContext, req: ApiRequest): ApiResponse {
  try {
    return answerApiRequest(ctx, req);
  } catch (err) {
    if (err instanceof BudgetExceeded) return budgetExceeded(err.budgetMs);
    throw err;
  }
}

function answerApiRequest(ctx: EngineContext, req: ApiRequest): ApiResponse {
  const { db, today } = ctx;
  const ok = (body: unknown): ApiResponse => ({ status: 200, body });
  const path = req.path.replace(/\/+$/, "") || "/";

  if (req.method === "GET" && path === "/health") return ok({ status: "ok" });
  if (req.method === "GET" && path === "/ready") return ok({ status: "ready" });

  if (path === "/v1/policies/filter" && req.method === "POST") {
    const body = req.body === undefined ? {} : req.body;
    const parsed = parseWith(FilterRequest, body, "body", req.bodyAsWritten ?? body);
    return parsed.ok
      ? ok(filterPolicies(db, parsed.value, today, ctx.budget, ctx.filterCache))
      : parsed.response;
  }
  if (req.method !== "GET") return { status: 405, body: { detail: "Method Not Allowed" } };

  const query = queryObject(req.query);
  const sent = queryObject(req.query, false);
  if (path === "/v1/payers") {
    const parsed = parseWith(PayersQuery, query, "query", sent);
    return parsed.ok ? ok(listPayers(db, parsed.value)) : parsed.response;
  }
  if (path === "/v1/lobs") {
    const parsed = parseWith(LobsQuery, query, "query", sent);
    return parsed.ok ? ok(listLobs(db, parsed.value)) : parsed.response;
  }
  if (path === "/v1/policies/updates") {
    const parsed = parseWith(UpdatesQuery, query, "query", sent);
    return parsed.ok ? ok(listUpdates(db, parsed.value, today)) : parsed.response;
  }
  if (path.startsWith("/v1/policies/")) {
    const rest = path.slice("/v1/policies/".length);
    const isDownload = rest.endsWith("/download-url");
    const id = decodeSegments(isDownload ? rest.slice(0, -"/download-url".length) : rest);
    if (!id) {
      return unprocessable([
        {
          loc: ["path", "policy_id"],
          msg: "Input should be a valid policy id",
          type: "value_error",
          input: rest,
        },
      ]);
    }
    const version = db.byId.get(id);
    if (!isDownload)
      return version ? ok(buildPolicyDetail(db, version)) : { status: 404, body: NOT_FOUND };
    const parsed = parseWith(DownloadQuery, query, "query", sent);
    if (!parsed.ok) return parsed.response;
    if (!version) return { status: 404, body: NOT_FOUND };
    const variant = parsed.value.variant ?? "display";
    const file = findStoredFile(version, variant);
    if (!file || ctx.hasFile?.(file) === false) return { status: 404, body: NO_FILE };
    return ok(buildDownloadLink(version, variant, ctx.linkFor(version, variant, file)));
  }
  return { status: 404, body: { detail: "Not Found" } };
}
