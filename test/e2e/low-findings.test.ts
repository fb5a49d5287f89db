// The low findings of the second newcomer (issue 37 item 8, ../shared/findings/newcomer-2.md
// N9-N20), through the CLI in this process.
import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import { withStderrOnTty } from "../helpers/tty.js";

describe("N14: a bare --data name that is a folder says so", () => {
  it("--data adir, ./adir a folder: 'is a folder', not 'no file'", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "coverage-adir-"));
    mkdirSync(path.join(cwd, "adir"));
    const home = mkdtempSync(path.join(os.tmpdir(), "coverage-home-"));
    const r = await runInProcess(["--data", "adir", "search"], {
      cwd,
      env: { XDG_DATA_HOME: home },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'adir' in the working folder is a folder, not a dataset file");
    expect(r.stderr).not.toContain("no file 'adir'");
  });
});

describe("N11: an empty code view says so once, and hints at a code that may not exist", () => {
  it.each([["code"], ["matrix"]])("%s CPT:99999 piped", async (command) => {
    const r = await runInProcess(["-q", command, "CPT:99999"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("no description known (no policy lists it: is it a real code?)");
    expect(r.stdout).not.toContain("No policy lists this code");
    expect(r.stderr.match(/No policy lists this code/g)).toHaveLength(1);
  });
});

describe("N9: stderr notices wrap at spaces to the terminal", () => {
  it("search --state CA at 80 columns: no line over 80, no word cut", async () => {
    const r = await withStderrOnTty(["search", "--code", "CPT:97110", "--state", "CA"]);
    expect(r.exitCode).toBe(0);
    const lines = r.terminal.replace(/\r/g, "").split("\n");
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    const notice = lines.join(" ");
    expect(notice).toContain("Medicare's sub-state jurisdictions");
    expect(notice).not.toMatch(/Medicar\s+e's/);
  });
});

describe("N15: a table piped while stderr is on a terminal fits that terminal", () => {
  it("search --payer CMS --all | file, stderr on an 80-column terminal: lines of at most 80", async () => {
    const r = await withStderrOnTty(["-q", "search", "--payer", "CMS", "--all"]);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines.length).toBeGreaterThan(3);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
  });
});
