import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readProfile } from "../../../src/config/read.js";
import { openConfigStore } from "../../../src/config/store.js";
import {
  checkApiKey,
  checkProfileName,
  maskSecret,
  parseConfigKey,
  parseConfigValue,
} from "../../../src/config/values.js";

const refuses = (fn: () => unknown, text: string) => {
  let caught: { exitCode?: number; message?: string; suggestion?: string } | undefined;
  try {
    fn();
  } catch (err) {
    caught = err as typeof caught;
  }
  expect(caught?.exitCode).toBe(2);
  expect(`${caught?.message} ${caught?.suggestion}`).toContain(text);
};

describe("config values", () => {
  it.each([
    ["api-url", "api-url"],
    ["API-KEY", "api-key"],
    [" timeout ", "timeout"],
  ])("key %s -> %s", (raw, key) => expect(parseConfigKey(raw)).toBe(key));

  it.each(["apiurl", "api_url", "", "profiles"])("unknown key '%s' names the valid keys", (raw) =>
    refuses(() => parseConfigKey(raw), "api-url, sandbox-url, api-key, format, timeout"),
  );

  it.each<[Parameters<typeof parseConfigValue>[0], string, string | number]>([
    ["api-url", "https://api.example.com/base", "https://api.example.com/base"],
    ["api-url", " http://127.0.0.1:8787 ", "http://127.0.0.1:8787"],
    ["sandbox-url", "https://sandbox.example.com", "https://sandbox.example.com"],
    ["format", "CSV", "csv"],
    ["format", "ndjson", "ndjson"],
    ["timeout", "10000", 10000],
    ["timeout", "1", 1],
    ["timeout", "2147483647", 2147483647],
    ["data", " medicare ", "medicare"],
    ["data", "/srv/catalogue.db", "/srv/catalogue.db"],
  ])("%s %s -> %s", (key, raw, value) => expect(parseConfigValue(key, raw)).toBe(value));

  it.each<[Parameters<typeof parseConfigValue>[0], string, string]>([
    ["api-url", "api.example.com", "is not a valid URL"],
    ["api-url", "file:///etc/passwd", "must start with https://"],
    ["api-url", "https://api.example.com/?a=1", "must be a base URL"],
    ["sandbox-url", "https://u:p@sandbox.example.com", "must be a base URL"],
    ["api-url", "https://api.example.com/#x", "must be a base URL"],
    ["format", "yaml", "is not one of table, json, ndjson, csv"],
    ["timeout", "0", "positive whole number"],
    ["timeout", "-1", "positive whole number"],
    ["timeout", "2.5", "positive whole number"],
    ["timeout", "1e3", "positive whole number"],
    ["timeout", "2147483648", "longest timeout, 2147483647 ms"],
    ["timeout", "99999999999999999999", "longest timeout"],
    ["data", "  ", "the value is empty"],
  ])("%s %s is refused", (key, raw, text) => refuses(() => parseConfigValue(key, raw), text));

  it("a URL with a password is refused without echoing the password", () => {
    expect(() => parseConfigValue("api-url", "ftp://u:s3cret-pass@api.example.com")).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: expect.not.stringContaining("s3cret-pass") as string,
      }),
    );
  });

  it.each([
    ["abcdefghijkl", "***ijkl"],
    ["sk-live-0123456789-WXYZ", "***WXYZ"],
    ["abcdefghijk", "***"],
    ["k", "***"],
  ])("mask %s -> %s", (key, masked) => expect(maskSecret(key)).toBe(masked));

  it.each([
    ["  key-123\n", "key-123"],
    ["key\r\n", "key"],
  ])("api key %j is trimmed", (raw, key) => expect(checkApiKey(raw)).toBe(key));

  it.each([
    ["", "no API key was given"],
    ["\n", "no API key was given"],
    ["two words", "spaces"],
    ["a\nb", "line breaks"],
    ["a\u0000b", "control characters"],
  ])("api key %j is refused", (raw, text) => refuses(() => checkApiKey(raw), text));

  it.each(["default", "staging", "team.a", "a_b-2"])("profile %s is fine", (name) =>
    expect(checkProfileName(name)).toBe(name),
  );
  it.each(["", "__proto__", ".hidden", "a b", "x/y"])("profile '%s' is refused", (name) =>
    refuses(() => checkProfileName(name), "is not allowed"),
  );
});

describe("config store (conf) and read.ts agree on the file", () => {
  it("set, read back by readProfile, unset drops empty profiles, mode 0600", async () => {
    // A folder that does not exist yet: the store creates it private (0700).
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-store-")), "cfg");
    const env = { COVERAGE_CONFIG_DIR: dir };
    const store = await openConfigStore(env);
    store.set("team.a", "api-url", "https://a.example.com");
    store.set("team.a", "timeout", 5);
    store.set("default", "format", "csv");
    expect(readProfile("team.a", env)).toEqual({ "api-url": "https://a.example.com", timeout: 5 });
    expect(JSON.parse(readFileSync(store.file, "utf8"))).toEqual({
      profiles: {
        "team.a": { "api-url": "https://a.example.com", timeout: 5 },
        default: { format: "csv" },
      },
    });
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(store.unset("default", "format")).toBe(true);
    expect(store.unset("default", "format")).toBe(false);
    expect(Object.keys(JSON.parse(readFileSync(store.file, "utf8")).profiles)).toEqual(["team.a"]);
  });
});
