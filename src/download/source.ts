import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { AttemptTimeout, isTimeout, networkError } from "../backend/http-errors.js";
import { redactUrl } from "../backend/http-redact.js";
import type { Dispatcher } from "../backend/undici.js";
import { resolveProxy, buildProxyOptions } from "../backend/proxy.js";
import {
  errorFromFileResponse,
  InterruptedError,
  NotFoundError,
  UnexpectedError,
} from "../errors.js";
import { buildLargeReads } from "./large-reads.js";

/** An open download: the bytes, their expected size when known, and how to release it. */
export interface DownloadSource {
  stream: Readable;
  size: number | undefined;
  close(): Promise<void>;
  /** The answer's status (200 for a file:// link). */
  status: number;
  /** The answer's headers, lower-case names (none for a file:// link). */
  headers: Record<string, string | string[] | undefined>;
}

export interface SourceOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the run's environment). */
  env: NodeJS.ProcessEnv;
  /** One line per HTTP request with --verbose (the link's signature masked). */
  verbose?: ((line: string) => void) | undefined;
  /** Request headers beside the user agent (a conditional or range request); never a credential. */
  headers?: Record<string, string> | undefined;
  /** undici's idle timer on the body (default `timeoutMs`): a pull watches stalls itself. */
  bodyTimeoutMs?: number | undefined;
  /** Statuses handed back as they are instead of failing (304, a retryable 503): the caller decides. */
  accept?: ((status: number) => boolean) | undefined;
  /** What to do when the host cannot be reached, after the network advice (a download's default: ask again). */
  unreachable?: string | undefined;
}

const INTERRUPTED = "download interrupted; nothing was saved";
/** Stream buffer size for downloads, shared by the reader and the writer. */
const CHUNK = 1024 * 1024;
/** Redirects followed from a download link to its file (curl's -L has 50; browsers ~20). */
const MAX_REDIRECTS = 5;

async function openFile(url: string): Promise<DownloadSource> {
  const file = fileURLToPath(url);
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new NotFoundError(
      `the stored file is missing: ${file}`,
      "The dataset names a file that is not there; check the dataset's files folder.",
    );
  }
  const stream = createReadStream(file, { highWaterMark: CHUNK });
  return { stream, size, close: async () => void stream.destroy(), status: 200, headers: {} };
}

/** What undici's refusal of a redirect means, in our words; undefined for other errors. */
function badRedirect(message: string): string | undefined {
  if (/redirect loop/i.test(message))
    return "redirects in a loop (it sends the request back to an address it already sent it to)";
  // undici checks a redirect's target before connecting: a file:, ftp: or data: Location.
  if (/invalid url protocol/i.test(message))
    return "redirected to an address that is not http or https; nothing was read from it";
  return undefined;
}

/**
 * Opens the link's bytes: `file://` from the local engine, `http(s)://` with undici (proxies
 * from the environment, redirects followed). No API key and no other credential is sent: the
 * link carries its own signature.
 */
export async function openSource(url: string, options: SourceOptions): Promise<DownloadSource> {
  const { signal, timeoutMs } = options;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnexpectedError(`the download link is not a URL: ${redactUrl(url)}`);
  }
  if (parsed.protocol === "file:") return openFile(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new UnexpectedError(
      `the download link uses an unsupported scheme (${parsed.protocol}): ${redactUrl(url)}`,
    );
  const shown = redactUrl(url);
  // Loaded only for http(s) links: the local engine's file:// links never need undici.
  const { EnvHttpProxyAgent, redirect, request } = await import("../backend/undici.js");
  const proxies = buildProxyOptions(parsed.hostname, options.env);
  const via = resolveProxy(parsed, proxies);
  const agent = new EnvHttpProxyAgent({
    ...proxies,
    headersTimeout: timeoutMs,
    bodyTimeout: options.bodyTimeoutMs ?? timeoutMs,
    // Large reads only on direct connections: a proxy's tunnel keeps undici's own connector.
    connect: { timeout: timeoutMs, onread: buildLargeReads() },
  });
  const close = () => agent.close().catch(() => undefined);
  const started = Date.now();
  const log = (result: string) =>
    options.verbose?.(`GET ${shown} ${result} ${Date.now() - started} ms 0 retries (file)`);
  // One deadline up to the answer's headers, a proxy's CONNECT included (undici's own timeouts
  // do not cover a proxy that never answers); the body then has undici's idle timeout.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new AttemptTimeout()), timeoutMs);
  // The address of the last hop sent: a redirect's target that fails is named, not the link's
  // first host (undici follows redirects inside; this interceptor sits below it, sees each).
  let hop = parsed;
  const recordHop =
    (dispatch: Dispatcher["dispatch"]): Dispatcher["dispatch"] =>
    (opts, handler) => {
      if (opts.origin !== undefined) hop = new URL(opts.path, opts.origin);
      return dispatch(opts, handler);
    };
  try {
    const res = await request(url, {
      dispatcher: agent.compose(recordHop, redirect({ maxRedirections: MAX_REDIRECTS })),
      method: "GET",
      headers: { ...options.headers, "user-agent": "coverage-cli" },
      // 1 MiB buffers: undici's 64 KiB default halves throughput on large files (bench/).
      highWaterMark: CHUNK,
      signal: AbortSignal.any([signal, deadline.signal]),
    }).finally(() => clearTimeout(timer));
    log(String(res.statusCode));
    const accepted = options.accept?.(res.statusCode) === true;
    if (!accepted && (res.statusCode < 200 || res.statusCode >= 300)) {
      await res.body.dump().catch(() => undefined);
      throw errorFromFileResponse(res.statusCode, shown, MAX_REDIRECTS);
    }
    const length = Number(res.headers["content-length"]);
    return {
      stream: res.body,
      size: Number.isInteger(length) && length >= 0 ? length : undefined,
      close,
      status: res.statusCode,
      headers: res.headers,
    };
  } catch (err) {
    // destroy, not close: close waits for a request still queued behind a proxy that hangs.
    await agent.destroy().catch(() => undefined);
    if (signal.aborted) throw new InterruptedError(INTERRUPTED);
    if (err instanceof NotFoundError || err instanceof UnexpectedError) throw err;
    log((err as { code?: string }).code ?? "error");
    const failed = networkError(err, {
      method: "GET",
      url: hop.href === parsed.href ? shown : `${redactUrl(hop.href)} (redirected from ${shown})`,
      origin: hop.origin,
      timeoutMs,
      retries: 0,
      proxy: via === undefined ? undefined : redactUrl(via),
    });
    // undici's words for it speak of "cross-origin" and Agents: the host was reached, and it
    // sent the client round in a circle (findings reliability-2 P1).
    const redirected = err instanceof Error ? badRedirect(err.message) : undefined;
    if (redirected)
      throw Object.assign(
        new UnexpectedError(
          `GET ${shown}: the host ${redirected}`,
          "The host is misconfigured, or in the middle of a change: try again later. Nothing was saved.",
        ),
        { cause: err },
      );
    // The generic advice is about --api-url; the file host is another server.
    const thrown =
      isTimeout(err) || via !== undefined
        ? failed
        : new UnexpectedError(
            failed.message,
            `The host cannot be reached: check the network connection (proxies come from HTTPS_PROXY, HTTP_PROXY and NO_PROXY). ${options.unreachable ?? "Then run the command again (it asks for a fresh link)."}`,
          );
    // The network's own error stays readable (readErrorCode): a caller that retries needs it.
    throw Object.assign(thrown, { cause: err });
  }
}
