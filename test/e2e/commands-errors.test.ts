import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

const COMMANDS = [
  "policy",
  "payers",
  "lobs",
  "updates",
  "code",
  "matrix",
  "versions",
  "diff",
  "download",
  "health",
  "config",
];

describe("exit codes of commander's own errors and of help", () => {
  it.each<{ args: string[]; code: number; stderr?: RegExp }>([
    { args: ["policy"], code: 2, stderr: /missing required argument 'policy_id'/ },
    { args: ["download"], code: 2, stderr: /missing required argument 'policy_id'/ },
    { args: ["payers", "--bogus"], code: 2, stderr: /unknown option '--bogus'/ },
    { args: ["lobs", "--limit"], code: 2, stderr: /argument missing/ },
    {
      args: ["--format", "xml", "payers"],
      code: 2,
      stderr: /Allowed choices are table, json, ndjson, csv/,
    },
    { args: ["updates", "--format", "yaml"], code: 2, stderr: /Allowed choices/ },
    { args: ["payers", "--json", "--format", "csv"], code: 2, stderr: /--json and --format csv/ },
    { args: ["--format", "ndjson", "payers", "--json"], code: 2, stderr: /ask for two formats/ },
    { args: ["payers", "--json", "--format", "json"], code: 0 },
    { args: ["nocommand"], code: 2, stderr: /unknown command 'nocommand'/ },
    { args: ["config", "get"], code: 2, stderr: /missing required argument 'key'/ },
    { args: ["config", "frob"], code: 2, stderr: /unknown command 'frob'/ },
    { args: ["policy", "a", "b"], code: 2, stderr: /too many arguments/ },
    { args: ["policy", ""], code: 2, stderr: /^error: the policy id is empty$/m },
    { args: ["download", "", "--url-only"], code: 2, stderr: /^error: the policy id is empty$/m },
    { args: [], code: 2 },
    { args: ["--help"], code: 0 },
    { args: ["help"], code: 0 },
    { args: ["help", "download"], code: 0 },
    { args: ["--version"], code: 0 },
    { args: ["policy", "--help"], code: 0 },
    { args: ["config", "set", "--help"], code: 0 },
  ])("coverage $args -> exit $code", async ({ args, code, stderr }) => {
    const r = await runInProcess(["--data", RULES_DATA, ...args]);
    expect(r.exitCode).toBe(code);
    if (stderr) expect(r.stderr).toMatch(stderr);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each<{ args: string[]; env?: Record<string, string>; stderr: RegExp }>([
    { args: ["--profile", "nope", "payers"], stderr: /profile 'nope' is not in .*config\.json/ },
    { args: ["payers"], env: { COVERAGE_PROFILE: "nope" }, stderr: /profile 'nope' is not in/ },
    { args: ["--profile", "a b", "payers"], stderr: /profile name 'a b' is not allowed/ },
    { args: ["--api-url", "", "payers"], stderr: /--api-url was given an empty value/ },
    { args: ["--timeout", " ", "payers"], stderr: /--timeout was given an empty value/ },
    {
      args: ["--sandbox", "--api-url", "http://127.0.0.1:9", "payers"],
      stderr: /--sandbox cannot be combined with --api-url/,
    },
    {
      args: ["payers"],
      env: { COVERAGE_TIMEOUT: "abc" },
      stderr: /timeout: 'abc' \(from COVERAGE_TIMEOUT\) is not .*\nExample: COVERAGE_TIMEOUT=10000/,
    },
    {
      args: ["payers"],
      env: { COVERAGE_FORMAT: "yaml" },
      stderr: /format: 'yaml' \(from COVERAGE_FORMAT\) .*\nExample: COVERAGE_FORMAT=csv/,
    },
    {
      args: ["payers"],
      env: { COVERAGE_TODAY: "2026-02-30" },
      stderr: /today: '2026-02-30' \(from COVERAGE_TODAY\)/,
    },
  ])("settings: $args $env -> exit 2 naming the source", async ({ args, env, stderr }) => {
    const r = await runInProcess(["--data", RULES_DATA, ...args], { env: env ?? {} });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(stderr);
  });

  it("COVERAGE_FORMAT is read in any case, like config set format", async () => {
    const r = await runInProcess(["--data", RULES_DATA, "payers"], {
      env: { COVERAGE_FORMAT: "NDJSON" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.split("\n")[0]!)).toHaveProperty("payer_id");
  });

  it("a message and what to do next; the stack trace only with --verbose", async () => {
    const plain = await runInProcess([
      "--local",
      "--data",
      RULES_DATA,
      "policy",
      "nope/1/2020-01-01",
    ]);
    expect(plain.exitCode).toBe(4);
    expect(plain.stderr.split("\n").filter(Boolean)).toEqual([
      "error: Policy not found",
      "Check the policy id with `coverage search` (ids keep their slashes).",
    ]);
    const verbose = await runInProcess(["--data", RULES_DATA, "-v", "policy", "nope/1/2020-01-01"]);
    expect(verbose.exitCode).toBe(4);
    expect(verbose.stderr).toMatch(/\n\s+at /);
    // A group of short flags counts too.
    const grouped = await runInProcess([
      "--data",
      RULES_DATA,
      "-qv",
      "policy",
      "nope/1/2020-01-01",
    ]);
    expect(grouped.exitCode).toBe(4);
    expect(grouped.stderr).toMatch(/\n\s+at /);
  });
});

describe("help: each command has two or three real examples", () => {
  it.each(COMMANDS)("coverage %s --help", async (command) => {
    const r = await runInProcess([command, "--help"]);
    expect(r.exitCode).toBe(0);
    const examples = r.stdout.split("Examples:")[1]?.trim().split("\n") ?? [];
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(examples.length).toBeLessThanOrEqual(3);
    for (const line of examples) expect(line).toMatch(/^\s*\$ .*coverage /);
  });

  // The examples must work on the bundled sample: run those that need no server or shell.
  // `config` has no example that runs without writing a profile.
  it.each(COMMANDS.filter((c) => c !== "config"))(
    "the examples of `%s` run on the bundled data",
    async (command) => {
      const help = (await runInProcess([command, "--help"])).stdout;
      const lines = (help.split("Examples:")[1] ?? "")
        .trim()
        .split("\n")
        .map((l) => l.replace(/^\s*\$ /, ""))
        .filter((l) => l.startsWith("coverage ") && !l.includes("--api-url"));
      expect(lines.length).toBeGreaterThan(0);
      const cwd = mkdtempSync(path.join(os.tmpdir(), "coverage-examples-"));
      for (const line of lines) {
        const r = await runInProcess(line.split(" ").slice(1), { cwd });
        // Nothing on stderr but the one line saying that the sample data answers (and the one
        // saying that --state CA also sends NF and SF, that `lobs --state` leaves nationwide
        // LOBs out, where a download went, and the day `updates` counts back from).
        const stderr = r.stderr
          .replace(/^--state .* also sends .*\n?/m, "")
          .replace(/^Nationwide lines of business are left out .*\n?/m, "")
          .replace(/^Saved .*\n?/m, "")
          .replace(/^The days are counted back from .*\n?/m, "")
          .replace(/^Using the bundled sample data \(no API configured.*\n?/, "");
        expect({ line, code: r.exitCode, stderr }).toEqual({ line, code: 0, stderr: "" });
      }
    },
  );
});

describe("API statuses map to cli.md's exit codes (scripted server)", () => {
  let server: Server;
  let base: string;
  let answer: { status: number; body: string; headers?: Record<string, string> };
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each<{
    status: number;
    body: unknown;
    headers?: Record<string, string>;
    code: number;
    text: string;
  }>([
    { status: 401, body: { detail: "Invalid API key" }, code: 3, text: "Invalid API key" },
    { status: 403, body: { detail: "Not authenticated" }, code: 3, text: "Not authenticated" },
    { status: 404, body: { detail: "Policy not found" }, code: 4, text: "Policy not found" },
    {
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "days"],
            msg: "Input should be less than or equal to 365",
            type: "less_than_equal",
          },
        ],
      },
      code: 2,
      text: "query.days: Input should be less than or equal to 365",
    },
    { status: 429, body: {}, headers: { "retry-after": "0" }, code: 5, text: "rate limited" },
    { status: 500, body: { detail: "boom" }, code: 1, text: "500" },
    { status: 200, body: { data: "not a list" }, code: 1, text: "malformed response" },
    // So many bad items that zod's issue list would overflow the stack: still exit 2.
    {
      status: 422,
      body: { detail: [{ loc: Array.from({ length: 130_000 }, () => null), msg: "x", type: "x" }] },
      code: 2,
      text: "the API rejected the request (422",
    },
  ])("$status -> exit $code", async ({ status, body, headers, code, text }) => {
    answer = { status, body: JSON.stringify(body), ...(headers ? { headers } : {}) };
    // The 130,000-item body is about the one error path all commands share: one command is
    // enough, and four of them took minutes on a loaded machine.
    const commands = text.includes("(422")
      ? [["updates"]]
      : [["updates"], ["payers"], ["lobs"], ["policy", "a/b/2020-01-01"]];
    for (const args of commands) {
      const r = await runInProcess(["--api-url", base, ...args], {
        env: { COVERAGE_API_KEY: "k-0123456789abcdef", COVERAGE_RETRY_BASE_MS: "1" },
      });
      expect({ args, code: r.exitCode }).toEqual({ args, code });
      expect(r.stderr).toContain(text);
      expect(r.stderr).not.toContain("k-0123456789abcdef");
      expect(r.stdout).toBe("");
    }
  });
});
