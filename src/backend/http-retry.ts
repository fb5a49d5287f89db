/** Retries after the first attempt (cli.md: at most 3). */
export const MAX_RETRIES = 3;

/** The first backoff step; doubled on each retry. Tests shrink it with COVERAGE_RETRY_BASE_MS. */
export const DEFAULT_RETRY_BASE_MS = 500;

/** Longest wait a `Retry-After` can impose (cli.md: capped at 60 s). */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth another try: rate limited, or a gateway/service hiccup. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** Error codes of a connection the other side dropped mid-exchange. */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED"]);

/** Whether a response status is retried. */
export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUSES.has(status);
}

/** The error code of a network failure (undici nests the socket's error in `cause`). */
export function readErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.code === "string") return e.code;
  if (typeof e?.cause?.code === "string") return e.cause.code;
  return undefined;
}

/** Whether a failure is a reset connection (retried, like a 503). */
export function isConnectionReset(err: unknown): boolean {
  const code = readErrorCode(err);
  return code !== undefined && RESET_CODES.has(code);
}

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (relative to `now`), capped at
 * 60 s; undefined when absent or unreadable (then the backoff applies).
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(v)) ms = Math.round(Number(v) * 1000);
  else {
    // HTTP dates always carry a clock time; this keeps stray text from parsing as a date.
    const at = /\d:\d/.test(v) ? Date.parse(v) : NaN;
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with jitter: between half and all of `base * 2^retry`. */
export function computeBackoffMs(
  retry: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const step = baseMs * 2 ** retry;
  return Math.round(step / 2 + random() * (step / 2));
}

/** The backoff base from COVERAGE_RETRY_BASE_MS (whole milliseconds), else the default. */
export function retryBaseFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.COVERAGE_RETRY_BASE_MS;
  if (raw !== undefined && /^\d+$/.test(raw.trim())) return Number(raw);
  return DEFAULT_RETRY_BASE_MS;
}

/** "1.5 s" / "300 ms": how long a wait reads in a notice. */
export function formatWait(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
