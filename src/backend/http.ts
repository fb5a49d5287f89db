import { setTimeout as sleep } from "node:timers/promises";
import { buildRequestUrl, type ApiRequest, type ApiResponse } from "../api/request.js";
import { AuthError, InterruptedError, UnexpectedError } from "../errors.js";
import { stripControls } from "../domain/terminal-text.js";
import { AttemptInterrupted, AttemptTimeout, networkError } from "./http-errors.js";
import { maskSecrets, redactUrl } from "./http-redact.js";
import { checkBaseUrl } from "./base-url.js";
import { resolveProxy, buildProxyOptions } from "./proxy.js";
import {
  computeBackoffMs,
  readErrorCode,
  formatWait,
  isConnectionReset,
  isRetryableStatus,
  MAX_RETRIES,
  parseRetryAfter,
  retryBaseFromEnv,
} from "./http-retry.js";
import type { Transport } from "./transport.js";
import {
  EnvHttpProxyAgent,
  request,
  type Dispatcher,
  type EnvHttpProxyAgentType,
} from "./undici.js";

export interface HttpTransportOptions {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  /** One line per request with --verbose (key and signatures masked). */
  verbose?: ((line: string) => void) | undefined;
  /** User-facing notices, e.g. "waiting 5 s before retrying". */
  notify: (line: string) => void;
  signal: AbortSignal;
  /** Proxy variables and COVERAGE_RETRY_BASE_MS come from here (default: process.env). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number | undefined;
  /** First backoff step in ms (default 500, or COVERAGE_RETRY_BASE_MS). */
  retryBaseMs?: number | undefined;
}

/** Biggest response body read into memory; the API's pages are far smaller. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const MISSING_KEY_HINT =
  "Set one with `coverage config set api-key` (reads stdin) or COVERAGE_API_KEY. " +
  "A local `coverage serve` started without --api-key accepts any key.";

interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

type Attempt = { ok: true; res: Received } | { ok: false; error: unknown };

async function readBody(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      body.destroy();
      throw new UnexpectedError(
        `the response is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB`,
        "Ask for fewer items with --limit.",
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function header(res: Received, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function maskDeep(value: unknown, secrets: ReadonlyArray<string | undefined>): unknown {
  if (typeof value === "string") return maskSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, secrets));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v, secrets)]));
  return value;
}

/** The API over undici: key header, retries, timeouts, proxies, defensive parsing. */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const { apiKey, timeoutMs, signal, notify, verbose } = options;
  const base = checkBaseUrl(options.baseUrl, apiKey);
  const env = options.env ?? process.env;
  const maxRetries = options.maxRetries ?? MAX_RETRIES;
  const retryBaseMs = options.retryBaseMs ?? retryBaseFromEnv(env);
  const secrets = [apiKey];
  const origin = redactUrl(base.origin, secrets);
  let agent: EnvHttpProxyAgentType | undefined;

  const proxies = buildProxyOptions(base.hostname, env);
  const via = resolveProxy(base, proxies);
  const proxy = via === undefined ? undefined : redactUrl(via, secrets);
  const dispatcher = () =>
    (agent ??= new EnvHttpProxyAgent({
      ...proxies,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: timeoutMs },
    }));

  async function attempt(
    url: string,
    method: string,
    headers: Record<string, string>,
    payload: string | undefined,
  ): Promise<Attempt> {
    // One deadline for connect, headers and body together; undici's own timeouts are per phase.
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(new AttemptTimeout()), timeoutMs);
    const onAbort = () => ctrl.abort(new AttemptInterrupted());
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    try {
      const res = await request(url, {
        dispatcher: dispatcher(),
        method: method as Dispatcher.HttpMethod,
        headers,
        body: payload,
        signal: ctrl.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await readBody(res.body);
      return { ok: true, res: { status: res.statusCode, headers: res.headers, text } };
    } catch (error) {
      if (error instanceof UnexpectedError) throw error;
      if (ctrl.signal.aborted) {
        // undici keeps a request that never got a connection (a proxy that does not answer)
        // queued after the abort; only destroying the agent ends its connection attempts.
        void agent?.destroy().catch(() => undefined);
        agent = undefined;
        return { ok: false, error: ctrl.signal.reason };
      }
      return { ok: false, error };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** How long to wait before retry number `retry` (0-based), or undefined: do not retry. */
  function retryWait(outcome: Attempt, retry: number): number | undefined {
    if (retry >= maxRetries) return undefined;
    if (!outcome.ok)
      return isConnectionReset(outcome.error) ? computeBackoffMs(retry, retryBaseMs) : undefined;
    const { status } = outcome.res;
    if (!isRetryableStatus(status)) return undefined;
    const after =
      status === 429 || status === 503
        ? parseRetryAfter(header(outcome.res, "retry-after"), Date.now())
        : undefined;
    return after ?? computeBackoffMs(retry, retryBaseMs);
  }

  function why(outcome: Attempt): string {
    if (!outcome.ok)
      return `the connection to ${origin} was reset (${readErrorCode(outcome.error)})`;
    const { status } = outcome.res;
    return status === 429 ? "the API is rate limiting (429)" : `the API answered ${status}`;
  }

  function parseBody(res: Received, method: string, shown: string, isApi: boolean): unknown {
    const ok = res.status >= 200 && res.status < 300;
    const snippet = () =>
      maskSecrets(stripControls(res.text.trim().slice(0, 120)).replace(/\s+/g, " "), secrets);
    const malformed = (what: string) =>
      new UnexpectedError(
        `malformed response from ${method} ${shown}: ${what}`,
        "The server's answer is not the API's JSON: check that --api-url is the API's base URL (without /v1), or report it.",
        res.text.trim() ? [`the body starts with: ${snippet()}`] : [],
      );
    if (res.text.trim() === "") {
      if (ok && isApi) throw malformed("empty body");
      return null;
    }
    try {
      return JSON.parse(res.text);
    } catch {
      if (ok && isApi) throw malformed("not JSON");
      // The checks' bodies are not specified (plain "OK" is fine); for an error status with an
      // HTML page, the status alone says what happened.
      return isApi ? null : snippet();
    }
  }

  return {
    kind: "http",
    baseUrl: options.baseUrl,
    async send(req: ApiRequest): Promise<ApiResponse> {
      const url = buildRequestUrl(options.baseUrl, req);
      const shown = redactUrl(url, secrets);
      if (new URL(url).origin !== base.origin)
        throw new UnexpectedError(`refusing to send a request outside ${origin}: ${shown}`);
      const isApi = req.path === "/v1" || req.path.startsWith("/v1/");
      if (isApi && !apiKey)
        throw new AuthError(`no API key is set for ${origin}`, MISSING_KEY_HINT);

      const headers: Record<string, string> = {
        accept: "application/json",
        "user-agent": "coverage-cli",
      };
      // "Every request carries the API key" (spec); the checks merely do not require one.
      if (apiKey) headers["x-api-key"] = apiKey;
      let payload: string | undefined;
      if (req.body !== undefined) {
        headers["content-type"] = "application/json";
        payload = JSON.stringify(req.body);
      }

      const started = Date.now();
      let retries = 0;
      let outcome: Attempt;
      for (;;) {
        outcome = await attempt(url, req.method, headers, payload);
        if (!outcome.ok && outcome.error instanceof AttemptInterrupted) break;
        const wait = retryWait(outcome, retries);
        if (wait === undefined) break;
        notify(
          `${why(outcome)}; retrying ${req.method} ${shown} in ${formatWait(wait)} (retry ${retries + 1} of ${maxRetries})`,
        );
        try {
          await sleep(wait, undefined, { signal });
        } catch {
          throw new InterruptedError("interrupted");
        }
        retries++;
      }

      const ms = Date.now() - started;
      const result = outcome.ok
        ? String(outcome.res.status)
        : (readErrorCode(outcome.error) ?? "error");
      const status = !outcome.ok && outcome.error instanceof AttemptTimeout ? "timeout" : result;
      verbose?.(
        `${req.method} ${shown} ${status} ${ms} ms ${retries} ${retries === 1 ? "retry" : "retries"}` +
          (apiKey ? " x-api-key: ***" : "") +
          describeBody(req.body, secrets),
      );

      if (!outcome.ok) {
        if (outcome.error instanceof AttemptInterrupted) throw new InterruptedError("interrupted");
        const err = networkError(outcome.error, {
          method: req.method,
          url: shown,
          origin,
          timeoutMs,
          retries,
          proxy,
        });
        throw new UnexpectedError(
          maskSecrets(err.message, secrets),
          err.suggestion,
          err.details.map((d) => maskSecrets(d, secrets)),
        );
      }
      const { res } = outcome;
      if (res.status >= 300 && res.status < 400) {
        const location = header(res, "location");
        throw new UnexpectedError(
          `${req.method} ${shown} answered a redirect (${res.status}${location ? ` to ${redactUrl(location, secrets)}` : ""})`,
          "Use the final URL as --api-url: the key is never sent on to another address.",
        );
      }
      const body = parseBody(res, req.method, shown, isApi);
      // Error details end up in messages: a server echoing the key must not print it.
      const ok = res.status >= 200 && res.status < 300;
      // The API's day: `coverage serve` says it; any server's Date header dates its clock.
      const day = readApiDay(header(res, "coverage-today"), header(res, "date"));
      return {
        status: res.status,
        body: ok ? body : maskDeep(body, secrets),
        ...(day ? { headers: { "coverage-today": day } } : {}),
      };
    },
    async close() {
      await agent?.close();
    },
  };
}

/** What a request's body sent, for --verbose (the filter's ids and codes live there, not in the URL). */
function describeBody(body: unknown, secrets: ReadonlyArray<string | undefined>): string {
  if (body === undefined) return "";
  const text = JSON.stringify(body);
  const shown = text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} characters)` : text;
  return ` body ${maskSecrets(shown, secrets)}`;
}

/** The API's today: its `coverage-today` header (YYYY-MM-DD), else its Date header's UTC day. */
export function readApiDay(
  today: string | undefined,
  date: string | undefined,
): string | undefined {
  if (today && /^\d{4}-\d{2}-\d{2}$/.test(today)) return today;
  const time = date ? Date.parse(date) : NaN;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
}
