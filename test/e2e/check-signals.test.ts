// `coverage check` and signals (issue 38, item 4): Ctrl-C, SIGTERM and SIGHUP stop a long check
// at a whole line, with a word on stderr and the signal's exit code; --json says its document
// is not closed. Real processes and real signals, sent once the output has begun (never after a
// fixed sleep); no timing is asserted: the check is that the run stopped well before the end.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, ROOT } from "../helpers/cli.js";

const SIGNALS = { SIGINT: [130, "Ctrl-C"], SIGTERM: [143, "SIGTERM"], SIGHUP: [129, "SIGHUP"] };
const LINES = 200_000;
const work = mkdtempSync(path.join(os.tmpdir(), "coverage-check-sig-"));
const claims = path.join(work, "claims.csv");

beforeAll(() => {
  const rows = ["97110,M54.50,CA", "E0601,G47.33,NY", "97110,M25.561,TX", "E0601,G47.33,CA"];
  const text = [
    "procedure,diagnosis,state",
    ...Array.from({ length: LINES }, (_, i) => rows[i % 4]),
  ];
  writeFileSync(claims, text.join("\n") + "\n");
});

/** Polls a condition (no timing assertion: the limit only bounds how long we wait). */
async function waitFor(what: string, check: () => boolean, limitMs = 120_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("check stops at a whole line on a signal", () => {
  const cases = (Object.keys(SIGNALS) as Array<keyof typeof SIGNALS>).flatMap((signal) =>
    (["ndjson", "json"] as const).map(
      (format) => [`${signal}, --format ${format}`, signal, format] as const,
    ),
  );
  it.for(cases)("%s", { timeout: 240_000 }, async ([, signal, format]) => {
    const out = path.join(work, `${signal}.${format}`);
    writeFileSync(out, "");
    const run = execa("node", [BIN, "check", "--input", claims, "--format", format], {
      reject: false,
      extendEnv: false,
      env: cleanEnv(),
      cwd: ROOT,
      stdin: "ignore",
      stdout: { file: out },
      forceKillAfterDelay: false,
    });
    await waitFor("the first lines", () => statSync(out).size > 10_000);
    run.kill(signal);
    const r = await run;
    const [exitCode, name] = SIGNALS[signal];
    expect(r.exitCode, r.stderr).toBe(exitCode);
    expect(r.stderr).toContain(`check stopped by ${name} after `);
    const text = readFileSync(out, "utf8");
    if (format === "ndjson") {
      expect(text.endsWith("\n")).toBe(true);
      const lines = text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { line: number });
      expect(lines.at(-1)!.line).toBeLessThan(LINES);
      expect(r.stderr).toContain(`the output ends with line ${lines.at(-1)!.line}, whole`);
    } else {
      expect(() => JSON.parse(text)).toThrow();
      expect(text.startsWith('{"lines":[')).toBe(true);
      expect(r.stderr).toMatch(/the --json document stops after line \d+ and is not closed/);
    }
  });
});
