import { describe, expect, it } from "vitest";
import { checkApiKey, createRateLimiter } from "../../../src/server/guard.js";

describe("checkApiKey", () => {
  it.each([
    [undefined, undefined, undefined],
    [undefined, "anything", undefined],
    ["k1", undefined, { status: 403, body: { detail: "Not authenticated" } }],
    ["k1", "", { status: 403, body: { detail: "Not authenticated" } }],
    ["k1", "k2", { status: 401, body: { detail: "Invalid API key" } }],
    ["k1", "k1 ", { status: 401, body: { detail: "Invalid API key" } }],
    ["k1", "k", { status: 401, body: { detail: "Invalid API key" } }],
    ["k1", "k1", undefined],
  ])("server key %j, header %j -> %j", (expected, given, reply) => {
    expect(checkApiKey(expected, given)).toEqual(reply);
  });
});

describe("sandbox rate limiter", () => {
  it("allows 100 per key per sliding minute, then says how long to wait", () => {
    const limiter = createRateLimiter(100, 60_000);
    for (let i = 0; i < 100; i++) expect(limiter.take("a", 1_000 + i * 100).ok).toBe(true);
    // The oldest of the 100 (t = 1 s) leaves the window at t = 61 s.
    expect(limiter.take("a", 20_000)).toEqual({ ok: false, retryAfterSeconds: 41 });
    expect(limiter.take("b", 20_000).ok).toBe(true);
    expect(limiter.take("a", 60_999).ok).toBe(false);
    expect(limiter.take("a", 61_000).ok).toBe(true);
  });

  it("never asks to wait less than a second", () => {
    const limiter = createRateLimiter(1, 60_000);
    limiter.take("a", 0);
    expect(limiter.take("a", 59_999)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });
});

describe("sandbox rate limiter: a bounded table", () => {
  it("drops a key once its last request has left the window", () => {
    const limiter = createRateLimiter(100, 60_000);
    for (let i = 0; i < 1_000; i++) limiter.take(`key-${i}`, 1_000 + i);
    expect(limiter.size).toBe(1_000);
    limiter.take("later", 1_000 + 60_000 + 500);
    // Keys 0..500 (last request at or before t = 1.5 s) are gone; the rest and "later" stay.
    expect(limiter.size).toBe(1_000 - 501 + 1);
    limiter.take("much-later", 10 * 60_000);
    expect(limiter.size).toBe(1);
  });

  it("many distinct keys within one window: the table stays at its bound", () => {
    const limiter = createRateLimiter(100, 60_000, 500);
    for (let i = 0; i < 20_000; i++) expect(limiter.take(`random-${i}`, 1_000).ok).toBe(true);
    expect(limiter.size).toBe(500);
    // The newest keys are still counted.
    for (let i = 0; i < 99; i++) limiter.take("random-19999", 2_000);
    expect(limiter.take("random-19999", 2_000).ok).toBe(false);
  });

  it("a key kept busy is not dropped while others expire", () => {
    const limiter = createRateLimiter(100, 60_000);
    limiter.take("idle", 0);
    for (let t = 0; t <= 120_000; t += 10_000) limiter.take("busy", t);
    expect(limiter.size).toBe(1);
    expect(limiter.take("busy", 120_001).ok).toBe(true);
  });
});
