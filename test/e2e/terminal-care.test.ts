import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it, type TestContext } from "vitest";
import { BIN, cleanEnv, runCoverage } from "../helpers/cli.js";
import { envelope, json, startScripted } from "../helpers/server.js";

// Issue 19, item 5: what a person at a terminal sees (the CLI under `script`, a real pty).

/** Runs the CLI under `script`, so stdout and stderr are a terminal of COLUMNS columns. */
async function onTty(args: string[], env: Record<string, string> = {}) {
  const command = ["node", BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const r = await execa("script", ["-qec", command, "/dev/null"], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ COLUMNS: "100", NO_COLOR: "1", ...env }),
    stdin: "ignore",
    timeout: 20_000,
  });
  return { ...r, stdout: r.stdout.replace(/\r\n/g, "\n") };
}

const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the CLI under `script` in a pty of 80x24 (`stty`: a pty without a size reports 0
 * columns), stdout sent to a file: what the terminal shows is then stderr alone.
 */
async function withStderrOnTty(args: string[], env: Record<string, string> = {}) {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-pty-")), "stdout");
  const command = `stty cols 80 rows 24; ${["node", BIN, ...args].map(quote).join(" ")} > ${quote(out)}`;
  const r = await execa("script", ["-qec", command, "/dev/null"], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ NO_COLOR: "1", ...env }),
    stdin: "ignore",
    timeout: 20_000,
  });
  return { exitCode: r.exitCode, terminal: r.stdout, stdout: readFileSync(out, "utf8") };
}

/** An API that answers every call after `ms` (an empty page). */
async function slowApi(t: TestContext, ms: number) {
  const s = await startScripted((_req, res) => {
    setTimeout(() => json(res, 200, envelope([], 20, 0, false)), ms);
  });
  t.onTestFinished(() => s.close());
  return s;
}

describe.concurrent("a spinner while an API call is pending", () => {
  it("shows on a terminal's stderr when the answer is slow; stdout holds only the data", async (t) => {
    const s = await slowApi(t, 1500);
    const r = await withStderrOnTty(["--api-url", s.url, "search", "--json"], {
      COVERAGE_API_KEY: "k-1919",
    });
    expect(r.exitCode, r.terminal).toBe(0);
    expect(r.terminal).toContain(`Waiting for 127.0.0.1:${s.port}: POST /v1/policies/filter`);
    expect(JSON.parse(r.stdout)).toEqual(envelope([], 20, 0, false));
  });

  it("never on a pipe, nor with --quiet on a terminal", async (t) => {
    const s = await slowApi(t, 800);
    const env = { COVERAGE_API_KEY: "k-1919" };
    const [piped, quiet] = await Promise.all([
      runCoverage(["--api-url", s.url, "search", "--json"], { env }),
      withStderrOnTty(["-q", "--api-url", s.url, "search", "--json"], env),
    ]);
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stderr).toBe("");
    expect(quiet.exitCode).toBe(0);
    expect(quiet.terminal).not.toContain("Waiting for");
  });
});

describe.concurrent("criteria text on a terminal", () => {
  it.each([50, 72])("wraps at word boundaries to %i columns, list items hanging", async (cols) => {
    const r = await onTty(["-q", "policy", "cms-ncd/240.4/2008-03-13"], { COLUMNS: String(cols) });
    expect(r.exitCode, r.stdout).toBe(0);
    const criteria = r.stdout.slice(r.stdout.indexOf("\nCriteria\n"));
    const lines = criteria.split("\n");
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(cols);
    // The long item keeps every word whole, its continuation under its text.
    const at = lines.findIndex((l) => l.includes("AHI/RDI of 5 to 14"));
    expect(lines[at + 1]).toMatch(/^ {4,5}[a-z(]/);
    const item = [lines[at], lines[at + 1], lines[at + 2]].map((l) => l!.trim()).join(" ");
    expect(item).toContain("AHI/RDI of 5 to 14 with symptoms (daytime sleepiness, insomnia,");
  });
});
