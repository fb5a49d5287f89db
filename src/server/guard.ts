import { createHash, timingSafeEqual } from "node:crypto";
import type { ApiResponse } from "../api/request.js";

/** Spec Authentication 2: no `x-api-key` header. */
const NOT_AUTHENTICATED: ApiResponse = {
  status: 403,
  body: { detail: "Not authenticated" },
};
/** Spec Authentication 3: a key that is not the server's. */
const INVALID_KEY: ApiResponse = { status: 401, body: { detail: "Invalid API key" } };

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/**
 * The key check of `/v1` requests: none when the server has no key; else 403 when the header is
 * missing or empty, 401 when it differs (compared in constant time over equal-length digests).
 */
export function checkApiKey(
  expected: string | undefined,
  given: string | undefined,
): ApiResponse | undefined {
  if (expected === undefined) return undefined;
  if (!given) return NOT_AUTHENTICATED;
  return timingSafeEqual(digest(given), digest(expected)) ? undefined : INVALID_KEY;
}

export interface RateLimiter {
  /** Counts one request for `key`; when over the limit, the seconds until one is allowed again. */
  take(key: string, now?: number): { ok: true } | { ok: false; retryAfterSeconds: number };
}

/** Sandbox rate: at most `limit` requests per key in any sliding window of `windowMs`. */
export function createRateLimiter(limit = 100, windowMs = 60_000): RateLimiter {
  const hits = new Map<string, number[]>();
  return {
    take(key, now = Date.now()) {
      const since = now - windowMs;
      const times = (hits.get(key) ?? []).filter((t) => t > since);
      if (times.length >= limit) {
        hits.set(key, times);
        const retryAfterSeconds = Math.max(1, Math.ceil((times[0]! + windowMs - now) / 1000));
        return { ok: false, retryAfterSeconds };
      }
      times.push(now);
      hits.set(key, times);
      return { ok: true };
    },
  };
}
