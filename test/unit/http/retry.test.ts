import { describe, expect, it } from "vitest";
import {
  computeBackoffMs,
  isConnectionReset,
  isRetryableStatus,
  parseRetryAfter,
  retryBaseFromEnv,
} from "../../../src/backend/http-retry.js";

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

describe("parseRetryAfter", () => {
  it.each([
    ["0", 0],
    ["1", 1000],
    [" 2 ", 2000],
    ["2.5", 2500],
    ["60", 60_000],
    ["3600", 60_000],
    [new Date(NOW + 10_000).toUTCString(), 10_000],
    [new Date(NOW - 10_000).toUTCString(), 0],
    [new Date(NOW + 3_600_000).toUTCString(), 60_000],
    ["Monday, 01-Jun-26 12:00:05 GMT", 5_000],
    ["soon", undefined],
    ["-1", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%j -> %j ms", (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });
});

describe("computeBackoffMs", () => {
  it.each([
    [0, 0, 250],
    [0, 1, 500],
    [1, 0, 500],
    [2, 0.5, 1500],
    [2, 1, 2000],
  ])("retry %i with random %d -> %i ms (base 500)", (retry, r, ms) => {
    expect(computeBackoffMs(retry, 500, () => r)).toBe(ms);
  });

  it("is zero with a zero base (tests)", () => {
    expect(computeBackoffMs(3, 0)).toBe(0);
  });
});

describe("what is retried", () => {
  it.each([
    [429, true],
    [502, true],
    [503, true],
    [504, true],
    [500, false],
    [501, false],
    [404, false],
    [200, false],
  ])("status %i -> %s", (status, yes) => {
    expect(isRetryableStatus(status)).toBe(yes);
  });

  it.each([
    [{ code: "ECONNRESET" }, true],
    [{ code: "UND_ERR_SOCKET" }, true],
    [{ cause: { code: "EPIPE" } }, true],
    [{ code: "ECONNREFUSED" }, false],
    [{ code: "UND_ERR_HEADERS_TIMEOUT" }, false],
    [new Error("x"), false],
    [null, false],
  ])("%j is a reset: %s", (err, yes) => {
    expect(isConnectionReset(err)).toBe(yes);
  });

  it("reads the backoff base from COVERAGE_RETRY_BASE_MS", () => {
    expect(retryBaseFromEnv({ COVERAGE_RETRY_BASE_MS: "5" })).toBe(5);
    expect(retryBaseFromEnv({ COVERAGE_RETRY_BASE_MS: "x" })).toBe(500);
    expect(retryBaseFromEnv({})).toBe(500);
  });
});
