import { describe, expect, it } from "vitest";
import { networkError, AttemptTimeout } from "../../../src/backend/http-errors.js";
import { checkBaseUrl } from "../../../src/backend/base-url.js";
import { createHttpTransport } from "../../../src/backend/http.js";
import { resolveProxy, buildProxyOptions } from "../../../src/backend/proxy.js";
import { isLoopbackHost } from "../../../src/backend/loopback.js";
import { AuthError, UsageError } from "../../../src/errors.js";

describe("isLoopbackHost", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.255.254", true],
    ["localhost", true],
    ["LOCALHOST", true],
    ["[::1]", true],
    ["::1", true],
    ["128.0.0.1", false],
    ["10.0.0.1", false],
    ["127.0.0.1.example.com", false],
    ["localhost.example.com", false],
    ["[::ffff:7f00:1]", false],
    ["example.com", false],
  ])("%s -> %s", (host, yes) => {
    expect(isLoopbackHost(host)).toBe(yes);
  });
});

describe("buildProxyOptions", () => {
  const env = { HTTPS_PROXY: "http://proxy:3128", http_proxy: "http://lower:3128", NO_PROXY: "x" };
  it.each([
    [
      "api.example.com",
      { httpProxy: "http://lower:3128", httpsProxy: "http://proxy:3128", noProxy: "x" },
    ],
    ["127.0.0.1", { httpProxy: "", httpsProxy: "", noProxy: "" }],
    ["localhost", { httpProxy: "", httpsProxy: "", noProxy: "" }],
    ["[::1]", { httpProxy: "", httpsProxy: "", noProxy: "" }],
  ])("%s -> %j", (host, expected) => {
    expect(buildProxyOptions(host, env)).toEqual(expected);
  });
});

describe("resolveProxy (for messages; undici decides by itself)", () => {
  const P = { httpProxy: "http://p:1", httpsProxy: "http://s:2" };
  it.each([
    ["https://api.example.com", "", "http://s:2"],
    ["http://api.example.com", "", "http://p:1"],
    ["https://api.example.com", "*", undefined],
    ["https://api.example.com", "example.com", undefined],
    ["https://api.example.com", ".example.com", undefined],
    ["https://api.example.com", "*.example.com", undefined],
    ["https://api.example.com", "other.com, api.example.com", undefined],
    ["https://api.example.com", "example.com:8443", "http://s:2"],
    ["https://api.example.com:8443", "example.com:8443", undefined],
    ["https://notexample.com", "example.com", "http://s:2"],
    // `*` turns proxies off only as the whole value (undici's reading).
    ["https://api.example.com", "other.com,*", "http://s:2"],
    ["https://[2001:db8::1]:8443", "[2001:db8::1]", undefined],
    ["https://[2001:db8::1]:8443", "[2001:db8::1]:8443", undefined],
    ["https://[2001:db8::1]:8443", "[2001:db8::1]:443", "http://s:2"],
  ])("%s with NO_PROXY=%j -> %s", (url, noProxy, expected) => {
    expect(resolveProxy(new URL(url), { ...P, noProxy })).toBe(expected);
  });

  it("https without HTTPS_PROXY goes through HTTP_PROXY, as undici does", () => {
    const url = new URL("https://api.example.com");
    expect(resolveProxy(url, { httpProxy: "http://p:1", httpsProxy: "", noProxy: "" })).toBe(
      "http://p:1",
    );
  });
});

describe("checkBaseUrl", () => {
  it.each([
    ["https://api.example.com", "k"],
    ["http://127.0.0.1:8787", "k"],
    ["http://127.1:8787", "k"],
    ["http://localhost", "k"],
    ["http://[::1]:9", "k"],
    ["http://api.example.com", undefined],
  ])("accepts %s (key %j)", (url, key) => {
    expect(checkBaseUrl(url, key).href).toBe(new URL(url).href);
  });

  it.each([
    ["http://api.example.com", /refusing to send the API key over plain http to api\.example\.com/],
    ["http://10.255.255.1:80", /plain http to 10\.255\.255\.1/],
    ["ftp://api.example.com", /must start with https:\/\//],
    ["not a url", /is not a valid URL/],
    ["https://api.example.com/?x=1", /must be a base URL, without a query/],
    ["https://api.example.com#top", /must be a base URL, without a query/],
    ["https://user:k-secret@api.example.com", /must be a base URL, without a user name/],
  ])("refuses %s with a usage error", (url, message) => {
    const call = () => checkBaseUrl(url, "k-secret");
    expect(call).toThrow(UsageError);
    expect(call).toThrow(message);
    try {
      call();
    } catch (err) {
      expect(String((err as Error).message)).not.toContain("k-secret");
    }
  });
});

describe("createHttpTransport", () => {
  const base = {
    timeoutMs: 1000,
    notify: () => {},
    signal: new AbortController().signal,
    env: {},
  };

  it("refuses /v1 requests without a key before sending anything", async () => {
    const t = createHttpTransport({ ...base, baseUrl: "http://127.0.0.1:9", apiKey: undefined });
    await expect(t.send({ method: "GET", path: "/v1/payers", query: [] })).rejects.toThrow(
      AuthError,
    );
    await t.close?.();
  });
});

describe("networkError", () => {
  const where = {
    method: "GET",
    url: "https://h/v1/x",
    origin: "https://h",
    timeoutMs: 200,
    retries: 0,
  };
  it.each([
    [new AttemptTimeout(), "GET https://h/v1/x timed out after 200 ms"],
    [{ code: "UND_ERR_HEADERS_TIMEOUT" }, "timed out after 200 ms"],
    [{ code: "ECONNREFUSED" }, "cannot connect to https://h (connection refused)"],
    [{ code: "ENOTFOUND" }, "cannot resolve the host of https://h (ENOTFOUND)"],
    [{ cause: { code: "ECONNRESET" } }, "the connection to https://h was closed"],
    [{ code: "CERT_HAS_EXPIRED" }, "TLS failed for GET https://h/v1/x (CERT_HAS_EXPIRED)"],
    [
      Object.assign(new Error("weird"), { code: "EWHAT" }),
      "GET https://h/v1/x failed: weird (EWHAT)",
    ],
  ])("%j -> %s (exit 1)", (err, message) => {
    const e = networkError(err, where);
    expect(e.message).toContain(message);
    expect(e.exitCode).toBe(1);
  });
});
