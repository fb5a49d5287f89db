import type { Ora } from "ora";
import type { Io } from "./terminal.js";

/** How long a call may take before the spinner shows: a quick answer never flickers one. */
export const SPINNER_DELAY_MS = 300;

/** A spinner on stderr while calls are pending; stderr lines go through it so none is garbled. */
export interface PendingSpinner {
  /** Resolves as `work` does; after `SPINNER_DELAY_MS` still pending, `text` spins meanwhile. */
  around<T>(work: Promise<T>, text: string): Promise<T>;
  /** Writes a line to stderr, clearing the spinner first and drawing it again after. */
  write(line: string): void;
}

/**
 * The spinner of API calls (ora), only on a terminal and never with --quiet; elsewhere `around`
 * just waits and `write` just writes.
 */
export function createPendingSpinner(
  io: Pick<Io, "stderr" | "stderrIsTTY">,
  quiet: boolean,
  delayMs = SPINNER_DELAY_MS,
): PendingSpinner {
  const stream = io.stderr as NodeJS.WriteStream;
  // A pty with no size (`script`, some CI runners) reports 0 columns: ora would divide by it.
  if (!io.stderrIsTTY || quiet || stream.columns === 0)
    return { around: (work) => work, write: (line) => void io.stderr.write(line + "\n") };

  let spinner: Ora | undefined;
  let pending = 0;
  let text = "";

  const show = async () => {
    const { default: ora } = await import("ora");
    if (pending === 0 || spinner?.isSpinning) return;
    spinner ??= ora({ stream, discardStdin: false });
    spinner.start(text);
  };
  return {
    async around(work, label) {
      pending++;
      text = label;
      const timer = setTimeout(() => void show(), delayMs);
      try {
        return await work;
      } finally {
        clearTimeout(timer);
        if (--pending === 0) spinner?.stop();
      }
    },
    write(line) {
      const spinning = spinner?.isSpinning === true;
      if (spinning) spinner!.clear();
      io.stderr.write(line + "\n");
      if (spinning) spinner!.render();
    },
  };
}
