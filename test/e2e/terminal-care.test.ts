import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv } from "../helpers/cli.js";

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
