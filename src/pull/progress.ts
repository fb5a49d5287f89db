import { formatProgress } from "../download/progress.js";
import type { Io } from "../output/terminal.js";
import type { FileProgress } from "./fetch.js";

/** The progress of one file of a pull: its bar while it downloads, then one line. */
export interface PullFileProgress extends FileProgress {
  /** The file is done: its line (`ncd.zip: 12.3 MB in 2 s`). */
  done(line: string): void;
  /** The file failed: the bar is removed (the error says why). */
  fail(): void;
}

export type PullProgress = (label: string) => PullFileProgress;

const BAR = 20;

/** `[######--------------]` for a share of a known total. */
export function formatBar(bytes: number, total: number | undefined): string {
  if (!total) return "";
  const filled = Math.min(BAR, Math.floor((bytes / total) * BAR));
  return `[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] `;
}

/**
 * A bar per file on stderr on a terminal (bytes, rate, time left; ora draws it); elsewhere one
 * line per file when it is done. Nothing with --quiet.
 */
export async function createPullProgress(
  io: Pick<Io, "stderr" | "stderrIsTTY">,
  quiet: boolean,
): Promise<PullProgress> {
  const write = (line: string) => {
    if (!quiet) io.stderr.write(`${line}\n`);
  };
  // A pty that reports 0 columns makes ora loop (src/download/progress.ts): lines there too.
  const tty = io.stderrIsTTY && !quiet && (io.stderr as NodeJS.WriteStream).columns !== 0;
  if (!tty) return () => ({ start() {}, update() {}, done: write, fail() {} });
  const { default: ora } = await import("ora");
  return (label) => {
    const spinner = ora({ stream: io.stderr as NodeJS.WriteStream, discardStdin: false });
    spinner.start(`${label}: connecting`);
    let total: number | undefined;
    // The rate is the average since the file's first byte, a resumed answer included.
    const started = Date.now();
    let last = 0;
    return {
      start(size, resumedAt) {
        total = size === undefined ? undefined : size + resumedAt;
      },
      update(bytes) {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        spinner.text = `${label} ${formatBar(bytes, total)}${formatProgress(bytes, total, now - started)}`;
      },
      done: (line) => spinner.succeed(line),
      fail: () => spinner.stop(),
    };
  };
}
