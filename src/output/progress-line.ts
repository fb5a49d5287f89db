import type { Io } from "./terminal.js";

/** A one-line status on stderr, rewritten in place; a no-op unless stderr is a TTY (and not --quiet). */
export interface ProgressLine {
  update(text: string): void;
  done(): void;
}

/** Makes the progress line of long builds and exports. */
export function createProgressLine(
  io: Pick<Io, "stderr" | "stderrIsTTY">,
  quiet: boolean,
): ProgressLine {
  if (!io.stderrIsTTY || quiet) return { update() {}, done() {} };
  let shown = false;
  return {
    update(text) {
      io.stderr.write(`\r\x1b[2K${text}`);
      shown = true;
    },
    done() {
      if (shown) io.stderr.write("\r\x1b[2K");
      shown = false;
    },
  };
}
