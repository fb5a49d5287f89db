import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, RULES_DATA, runCoverage } from "../helpers/cli.js";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "coverage-dl-sig-"));
const PDF = readFileSync(path.join(path.dirname(RULES_DATA), "files", "pt.pdf"));
const SIGINT_AT = path.join(ROOT, "test", "helpers", "sigint-at.cjs");

/** A local-engine download with Ctrl-C sent at one exact point (see sigint-at.cjs). */
function downloadInterruptedAt(at: string, cwd: string, extra: string[] = []) {
  return runCoverage(["--data", RULES_DATA, "download", "a/pt/2025-01-01", ...extra], {
    cwd,
    env: { NODE_OPTIONS: `--require ${SIGINT_AT}`, COVERAGE_TEST_SIGINT_AT: at },
  });
}

describe("Ctrl-C at the end of a download: the exit code says what is on disk", () => {
  it.each([{ extra: [] }, { extra: ["--force"] }])(
    "after the file is in place ($extra): exit 0, the file complete, a line saying so",
    async ({ extra }) => {
      const cwd = tempDir();
      const r = await downloadInterruptedAt("after-commit", cwd, extra);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readdirSync(cwd)).toEqual(["PT-100.pdf"]);
      expect(readFileSync(path.join(cwd, "PT-100.pdf")).equals(PDF)).toBe(true);
      expect(r.stderr).toContain(
        `warning: interrupted after the download had finished: ${path.join(cwd, "PT-100.pdf")} is complete (${PDF.length} bytes)`,
      );
    },
  );

  it("after the last byte but before the file is put in place: exit 130, nothing left", async () => {
    const cwd = tempDir();
    const r = await downloadInterruptedAt("before-commit", cwd);
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain("download interrupted; nothing was saved");
    expect(readdirSync(cwd)).toEqual([]);
  });
});
