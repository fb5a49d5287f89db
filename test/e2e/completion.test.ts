import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPLETION_FILES, SHELLS } from "../../src/completion/shells.js";
import { ROOT } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

describe("coverage completion (e2e, built CLI)", () => {
  it.each(SHELLS)("prints the checked-in %s script", async (shell) => {
    const r = await runInProcess(["completion", shell]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const checkedIn = readFileSync(path.join(ROOT, "completions", COMPLETION_FILES[shell]), "utf8");
    expect(r.stdout).toBe(checkedIn.trimEnd());
  });

  it("prints the same script whatever global options and environment are given", async () => {
    const plain = await runInProcess(["completion", "fish"]);
    const withOptions = await runInProcess(["--format", "json", "completion", "fish", "-q"], {
      env: { COVERAGE_API_URL: "http://127.0.0.1:9", COVERAGE_FORMAT: "csv" },
    });
    expect(withOptions.exitCode).toBe(0);
    expect(withOptions.stdout).toBe(plain.stdout);
  });

  it.each([
    [["completion", "powershell"], /Allowed choices are bash, zsh, fish/],
    [["completion"], /missing required argument 'shell'/],
  ])("%j is a usage error (exit 2), nothing on stdout", async (args, message) => {
    const r = await runInProcess(args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });
});
