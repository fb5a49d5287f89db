import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { runCli } from "../../src/cli/run.js";
import { ROOT } from "./cli.js";

/** What a run of the CLI gave: the same fields as a spawned run's result (execa's). */
export interface CliRun {
  exitCode: number;
  /** stdout, less one final newline (as execa gives it). */
  stdout: string;
  stderr: string;
  /** stdout exactly as written. */
  rawStdout: string;
  rawStderr: string;
}

export interface InProcessOptions {
  /** Variables beside a clean environment (undefined removes one). */
  env?: Record<string, string | undefined>;
  /** What stdin holds; an empty stdin (as `stdin: "ignore"`) when absent. */
  input?: string | Buffer;
  /** The working folder for the run (the repository's root when absent). */
  cwd?: string;
  /** Aborts the run as Ctrl-C would (the command sees its signal aborted). */
  signal?: AbortSignal;
}

// Variables of the user's that would change what the CLI does (as test/helpers/cli.ts drops).
const DROPPED = new Set([
  "NO_COLOR",
  "FORCE_COLOR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "http_proxy",
  "https_proxy",
  "CI",
]);

/** An environment with none of the user's COVERAGE_* settings and a private config folder. */
function isolatedEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith("COVERAGE_") && !DROPPED.has(k)) env[k] = v;
  env.COVERAGE_CONFIG_DIR = mkdtempSync(path.join(os.tmpdir(), "coverage-config-"));
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

let active = 0;
const waiting: Array<() => void> = [];
let activeCwd = ROOT;
let cwdBefore = ROOT;
let exitCodeBefore: typeof process.exitCode;

/** A stream that keeps what is written to it; never a terminal. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/**
 * Runs the CLI in this process (`runCli`, what `bin/coverage.js` runs), with captured stdout and
 * stderr, a given stdin, environment and working folder, and an isolated config folder: a few
 * milliseconds where a spawned process costs 150 ms and more. Runs in one folder may overlap; a
 * run in another folder waits for them (the working folder is the process's).
 */
export async function runInProcess(
  args: string[],
  options: InProcessOptions = {},
): Promise<CliRun> {
  const stdout = capture();
  const stderr = capture();
  const input = options.input;
  const stdin = Readable.from(input === undefined ? [] : [Buffer.from(input)]);
  const cwd = options.cwd ?? ROOT;
  // The working folder is the process's: a run in another folder waits for the runs under way.
  while (active > 0 && cwd !== activeCwd)
    await new Promise<void>((resolve) => waiting.push(resolve));
  if (active++ === 0) {
    cwdBefore = process.cwd();
    exitCodeBefore = process.exitCode;
    activeCwd = cwd;
    process.chdir(cwd);
  }
  let exitCode: number;
  try {
    exitCode = await runCli(args, {
      env: isolatedEnv(options.env ?? {}),
      stdin,
      stdout: stdout.stream,
      stderr: stderr.stream,
      signal: options.signal ?? new AbortController().signal,
    });
  } finally {
    if (--active === 0) {
      process.chdir(cwdBefore);
      process.exitCode = exitCodeBefore;
      for (const resolve of waiting.splice(0)) resolve();
    }
  }
  const rawStdout = stdout.text();
  const rawStderr = stderr.text();
  return {
    exitCode,
    stdout: rawStdout.replace(/\r?\n$/, ""),
    stderr: rawStderr.replace(/\r?\n$/, ""),
    rawStdout,
    rawStderr,
  };
}
