import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { createProgress } from "../../src/download/progress.js";
import { RULES_DATA, cleanEnv } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { envelope, json, startScripted, type Scripted } from "../helpers/server.js";

// Regressions found by the acceptance review of cli.md (one block per divergence fixed).

const ESC = "\u001b";
const KEY = "acceptance-key-7788";
let server: Scripted | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const remote = (url: string, args: string[], env: Record<string, string> = {}) =>
  runInProcess(["--api-url", url, ...args], {
    env: { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1", ...env },
  });

/** A stream that says it is a terminal of the given width. */
function fakeTty(columns: number): PassThrough & { text(): string } {
  const chunks: string[] = [];
  const s = Object.assign(new PassThrough(), { isTTY: true, columns, text: () => chunks.join("") });
  s.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
  return s;
}

describe("health: a refused key keeps the exit code of the key (3), not 1", () => {
  it.each([
    { status: 401, detail: "Invalid API key" },
    { status: 403, detail: "Not authenticated" },
  ])("/health and /ready answer $status: exit 3, both still shown", async ({ status, detail }) => {
    server = await startScripted((_req, res) => json(res, status, { detail }));
    const r = await remote(server.url, ["health"], { NO_COLOR: "1" });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain("/health");
    expect(r.stdout).toContain(String(status));
    expect(r.stderr).toMatch(/api-key/);
    expect(r.stderr).not.toContain("    at ");
  });

  it("a 503 on /ready stays exit 1", async () => {
    server = await startScripted((req, res) =>
      req.url === "/ready" ? json(res, 503, { status: "unavailable" }) : json(res, 200, {}),
    );
    expect((await remote(server.url, ["health", "-q"])).exitCode).toBe(1);
  });
});

describe("control sequences from the API never reach stderr", () => {
  it("a 404 detail with CSI and OSC sequences is printed without them", async () => {
    server = await startScripted((_req, res) =>
      json(res, 404, { detail: `Policy ${ESC}]0;pwned\u0007not ${ESC}[31mfound\u0007` }),
    );
    const r = await remote(server.url, ["policy", "a/b/2024-01-01"]);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain("error: Policy not found");
    expect(r.stderr).not.toContain(ESC);
    expect(r.stderr).not.toContain("\u0007");
  });

  it("a 422 detail's loc and msg are stripped too", async () => {
    server = await startScripted((_req, res) =>
      json(res, 422, {
        detail: [{ loc: ["body", `li${ESC}[2Jmit`], msg: `too ${ESC}[31mbig`, type: "x" }],
      }),
    );
    const r = await remote(server.url, ["search", "x"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("body.limit: too big");
    expect(r.stderr).not.toContain(ESC);
  });
});

describe("the search table fits the terminal width", () => {
  const long = (i: number) => ({
    policy_id: `payer-with-a-long-name/commercial/obstructive-sleep-apnea-treatment-${i}/2026-01-01`,
    policy_number: `LAB-HCT V1.0.2026-${i}`,
    title: "Obstructive and Central Sleep Apnea Treatment with Positive Airway Pressure Devices",
    effective_from_date: "2026-01-01",
    effective_to_date: null,
    file_url: "https://example.org/x.pdf",
    file_type: "pdf",
    listing_url: "https://example.org/",
    summary: "s",
    score: 12.5,
  });

  it.each([80, 100])("COLUMNS=%i with a score column: no line is wider", async (width) => {
    server = await startScripted((_req, res) =>
      json(res, 200, envelope([long(1), long(2)], 20, 0, false)),
    );
    const r = await remote(server.url, ["search", "sleep"], {
      COLUMNS: String(width),
      NO_COLOR: "1",
    });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    // Ids this long take a line of their own, the other columns under them.
    expect(lines[0]).toBe("POLICY ID  TITLE");
    expect(lines[1]).toMatch(/^ {2}NUMBER\s+PAYER: SCOPE\s+STATUS\s+FROM\s+SCORE$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
    // Never wrapped: each id whole at the start of a line.
    for (const item of [long(1), long(2)])
      expect(lines.some((l) => l.split("  ")[0] === item.policy_id)).toBe(true);
  });
});

describe("download progress on a terminal that reports no size", () => {
  it("no spinner when the pty has 0 columns (ora would loop forever clearing lines)", async () => {
    expect(await createProgress({ stderr: fakeTty(0), stderrIsTTY: true }, false)).toBeUndefined();
  });

  it("a sized terminal still gets the spinner", async () => {
    const progress = await createProgress({ stderr: fakeTty(80), stderrIsTTY: true }, false);
    expect(progress).toBeDefined();
  });
});

describe("the 'no API configured' notice names the dataset that answers", () => {
  const run = async (args: string[]) => {
    const stdout = new PassThrough();
    const stderr = fakeTty(100);
    const env = cleanEnv({ NO_COLOR: "1" }) as NodeJS.ProcessEnv;
    const code = await runCli(args, { env, stdout, stderr, signal: new AbortController().signal });
    return { code, stderr: stderr.text() };
  };

  it("--data FILE: the notice says which file, not 'the bundled sample data'", async () => {
    const r = await run(["--data", RULES_DATA, "payers", "--limit", "1"]);
    expect(r.code).toBe(0);
    // The notice wraps at spaces to the fake terminal's width, wherever the path ends.
    const notice = r.stderr.replace(/\s+/g, " ");
    expect(notice).toContain(`Using the local engine over ${RULES_DATA} (no API configured`);
    expect(r.stderr).not.toContain("bundled sample");
  });

  it("no --data: the bundled sample data, with how to point at the live API", async () => {
    const r = await run(["payers", "--limit", "1"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Using the bundled sample data (no API configured");
    expect(r.stderr).toContain("--api-url");
    // One line that fits 80 columns, so that a terminal does not break it (finding 25).
    const lines = r.stderr.split("\n").filter((l) => l.includes("no API configured"));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThanOrEqual(80);
  });

  it("--quiet silences it", async () => {
    const r = await run(["--data", RULES_DATA, "payers", "--limit", "1", "-q"]);
    expect(r.stderr).not.toContain("no API configured");
  });

  it("is on stderr when stderr is not a TTY too (cli.md: one line on stderr), never on stdout", async () => {
    const r = await runInProcess(["payers", "--limit", "1", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("Using the bundled sample data (no API configured");
    expect(r.stdout).not.toContain("no API configured");
    const quiet = await runInProcess(["payers", "--limit", "1", "--json", "-q"]);
    expect(quiet.stderr).toBe("");
  });
});
