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
  /** How many keys it holds now (bounded by `maxKeys`). */
  readonly size: number;
}

/** Keys the sandbox limiter holds at most: 10,000 x 100 timestamps is ~8 MB. */
export const MAX_LIMITER_KEYS = 10_000;

/**
 * Sandbox rate: at most `limit` requests per key in any sliding window of `windowMs`. Without a
 * server key anyone may send any key, so the table is bounded: a key whose last request left
 * the window is dropped, and past `maxKeys` the key unused the longest goes (it had at most
 * `limit` requests in the window; dropping it can only let it through sooner).
 */
export function createRateLimiter(
  limit = 100,
  windowMs = 60_000,
  maxKeys = MAX_LIMITER_KEYS,
): RateLimiter {
  // In order of last counted request (a key is moved to the end when one is): the front holds
  // the keys idle the longest, so expired ones are dropped from there, each once.
  const hits = new Map<string, number[]>();
  const dropExpired = (since: number) => {
    for (const [key, times] of hits) {
      if ((times.at(-1) ?? -Infinity) > since) break;
      hits.delete(key);
    }
  };
  return {
    take(key, now = Date.now()) {
      const since = now - windowMs;
      dropExpired(since);
      const times = (hits.get(key) ?? []).filter((t) => t > since);
      if (times.length >= limit) {
        hits.set(key, times);
        const retryAfterSeconds = Math.max(1, Math.ceil((times[0]! + windowMs - now) / 1000));
        return { ok: false, retryAfterSeconds };
      }
      times.push(now);
      hits.delete(key);
      hits.set(key, times);
      while (hits.size > maxKeys) hits.delete(hits.keys().next().value as string);
      return { ok: true };
    },
    get size() {
      return hits.size;
    },
  };
}
