import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

const KEY = "sk-live-abcdefghijklmnop-WXYZ";

function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-cfg-"));
  const file = path.join(dir, "config.json");
  const run = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) =>
    runInProcess(args, {
      env: { COVERAGE_CONFIG_DIR: dir, COLUMNS: "100", NO_COLOR: "1", ...opts.env },
      ...(opts.input !== undefined ? { input: opts.input } : {}),
    });
  const stored = () => JSON.parse(readFileSync(file, "utf8"));
  return { dir, file, run, stored };
}

describe("coverage config", () => {
  it("set / get / list / unset round trip in the file read.ts reads", async () => {
    const { file, run, stored } = setup();
    expect((await run(["config", "set", "api-url", "https://api.example.com"])).exitCode).toBe(0);
    expect((await run(["config", "set", "timeout", "5000"])).exitCode).toBe(0);
    expect((await run(["config", "set", "format", "JSON"])).exitCode).toBe(0);
    expect(stored()).toEqual({
      profiles: {
        default: { "api-url": "https://api.example.com", timeout: 5000, format: "json" },
      },
    });
    expect((await run(["config", "get", "api-url"])).stdout).toBe("https://api.example.com");
    expect((await run(["config", "get", "timeout", "--json"])).stdout).toBe("5000");
    const list = await run(["config", "list"]);
    expect(list.stdout).toMatchSnapshot();
    expect(JSON.parse((await run(["config", "list", "--json"])).stdout)).toEqual({
      "api-url": "https://api.example.com",
      format: "json",
      timeout: 5000,
    });
    expect((await run(["config", "unset", "api-url"])).exitCode).toBe(0);
    expect(stored().profiles.default["api-url"]).toBeUndefined();
    expect((await run(["config", "get", "api-url"])).stdout).toBe("");
    expect((await run(["config", "path"])).stdout).toBe(file);
  });

  it("the stored format is used by other commands (same file, same shape)", async () => {
    const { run } = setup();
    await run(["config", "set", "format", "csv"]);
    const r = await run(["--data", RULES_DATA, "payers"]);
    expect(r.stdout.split("\r\n")[0]).toBe("payer_id,display_name");
  });

  it("writes the file with mode 0600, even over a file that was readable by others", async () => {
    const { file, run } = setup();
    await run(["config", "set", "format", "json"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    await run(["config", "set", "timeout", "100"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("api-key: read from stdin, stored, shown masked (*** and the last 4) and never printed", async () => {
    const { run, stored } = setup();
    const set = await run(["config", "set", "api-key"], { input: `${KEY}\n` });
    expect(set.exitCode).toBe(0);
    expect(set.stdout + set.stderr).not.toContain(KEY);
    expect(stored().profiles.default["api-key"]).toBe(KEY);
    const get = await run(["config", "get", "api-key"]);
    expect(get.stdout).toBe("***WXYZ");
    const list = await run(["config", "list"]);
    expect(list.stdout).toMatch(/^api-key\s+\*\*\*WXYZ$/m);
    expect(list.stdout).not.toContain(KEY.slice(0, -4));
    const json = await run(["config", "list", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ "api-key": "***WXYZ" });
  });

  it("api-key: a short key shows only ***", async () => {
    const { run } = setup();
    await run(["config", "set", "api-key"], { input: "abc123" });
    expect((await run(["config", "get", "api-key"])).stdout).toBe("***");
  });

  it("api-key given on the command line is refused (exit 2) and not echoed", async () => {
    const { file, run } = setup();
    const r = await run(["config", "set", "api-key", KEY]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("not taken from the command line");
    expect(r.stderr).toContain("coverage config set api-key");
    expect(r.stderr + r.stdout).not.toContain(KEY);
    expect(() => readFileSync(file)).toThrow();
  });

  it.each([
    { input: "", message: "no API key was given" },
    { input: "two words\n", message: "spaces, line breaks or control characters" },
  ])("api-key from stdin '$input' is refused: exit 2", async ({ input, message }) => {
    const { run } = setup();
    const r = await run(["config", "set", "api-key"], { input });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it.each([
    { args: ["get", "colour"], message: "unknown config key 'colour'" },
    { args: ["set", "api_url", "https://x"], message: "unknown config key 'api_url'" },
    { args: ["unset", "token"], message: "unknown config key 'token'" },
  ])("unknown key ($args): exit 2 naming the valid keys", async ({ args, message }) => {
    const { run } = setup();
    const r = await run(["config", ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain("api-url, sandbox-url, api-key, format, timeout");
  });

  it.each([
    { args: ["format", "xml"], message: "format: 'xml' is not one of table, json, ndjson, csv" },
    { args: ["timeout", "0"], message: "timeout: '0' is not a positive whole number" },
    { args: ["timeout", "1.5"], message: "timeout: '1.5' is not a positive whole number" },
    { args: ["timeout", "soon"], message: "timeout: 'soon' is not a positive whole number" },
    { args: ["api-url", "not a url"], message: "api-url: 'not a url' is not a valid URL" },
    {
      args: ["sandbox-url", "ftp://x.org"],
      message: "sandbox-url: 'ftp://x.org' must start with https://",
    },
    { args: ["format"], message: "config set format needs a VALUE" },
  ])("bad value ($args): exit 2, nothing stored", async ({ args, message }) => {
    const { file, run } = setup();
    const r = await run(["config", "set", ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(() => readFileSync(file)).toThrow();
  });

  it.each(["nope", "toString", "constructor"])(
    "a named profile that is not in the file (%s) is an error for other commands (exit 2)",
    async (name) => {
      const { run } = setup();
      expect((await run(["--profile", "work", "config", "set", "format", "json"])).exitCode).toBe(
        0,
      );
      const r = await run(["--data", RULES_DATA, "--profile", name, "payers"]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`profile '${name}' is not in`);
      expect((await run(["--data", RULES_DATA, "--profile", "work", "payers"])).exitCode).toBe(0);
    },
  );

  it("profiles: --profile and COVERAGE_PROFILE; a dotted name is one key, not a path", async () => {
    const { run, stored } = setup();
    await run(["--profile", "team.a", "config", "set", "format", "ndjson"]);
    await run(["config", "set", "format", "csv"], { env: { COVERAGE_PROFILE: "staging" } });
    await run(["config", "set", "timeout", "7", "--profile", "staging"]);
    expect(stored()).toEqual({
      profiles: { "team.a": { format: "ndjson" }, staging: { format: "csv", timeout: 7 } },
    });
    expect((await run(["config", "get", "format", "--profile", "team.a"])).stdout).toBe("ndjson");
    expect((await run(["config", "get", "format"])).stdout).toBe("");
  });

  it("a bad profile name is refused", async () => {
    const { run } = setup();
    const r = await run(["--profile", "__proto__", "config", "set", "format", "csv"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("profile name '__proto__' is not allowed");
  });

  it("a broken config file: exit 2 naming it; `config path` still answers", async () => {
    const { file, run } = setup();
    writeFileSync(file, "{ not json");
    const r = await run(["config", "list"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`config file ${file} is not valid JSON`);
    expect((await run(["config", "path"])).stdout).toBe(file);
  });
});
