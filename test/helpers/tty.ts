import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { BIN, cleanEnv } from "./cli.js";

/** A shell word: the argument in single quotes, its own quotes escaped. */
const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** Runs the built CLI under `script`, so stdout and stderr are a terminal of COLUMNS columns. */
export async function onTty(args: string[], env: Record<string, string> = {}) {
  const command = ["node", BIN, ...args].map(quote).join(" ");
  const r = await execa("script", ["-qec", command, "/dev/null"], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ COLUMNS: "100", NO_COLOR: "1", ...env }),
    stdin: "ignore",
    timeout: 20_000,
  });
  return { ...r, stdout: r.stdout.replace(/\r\n/g, "\n") };
}

/**
 * Runs the built CLI under `script` in a pty of 80x24 (`stty`: a pty without a size reports 0
 * columns), stdout sent to a file: what the terminal shows is then stderr alone.
 */
export async function withStderrOnTty(args: string[], env: Record<string, string> = {}) {
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
