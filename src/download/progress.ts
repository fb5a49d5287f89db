import type { Io } from "../output/terminal.js";
import type { ProgressSink } from "./save-file.js";
import { formatBytes } from "../output/bytes.js";

export { formatBytes };

/** A duration for people: `3 s`, `2 min 5 s`, `1 h 4 min`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * The progress line's figures: bytes so far, and with a known size the percent and the time
 * left; the speed is the average since the transfer began (steadier than the last interval).
 */
export function formatProgress(
  bytes: number,
  total: number | undefined,
  elapsedMs: number,
): string {
  const seconds = elapsedMs / 1000;
  const speed = seconds > 0 ? bytes / seconds : 0;
  const rate = speed > 0 ? `, ${formatBytes(Math.round(speed))}/s` : "";
  if (!total) return `${formatBytes(bytes)}${rate}`;
  const percent = Math.min(100, Math.floor((bytes / total) * 100));
  const left = speed > 0 ? `, ${formatDuration((total - bytes) / speed)} left` : "";
  return `${formatBytes(bytes)} of ${formatBytes(total)} (${percent}%)${rate}${left}`;
}

/** A spinner with bytes, percent, speed and time left on stderr; only on a TTY (never on pipes, never with --quiet). */
export async function createProgress(
  io: Pick<Io, "stderr" | "stderrIsTTY">,
  quiet: boolean,
): Promise<ProgressSink | undefined> {
  if (!io.stderrIsTTY || quiet) return undefined;
  // A pty with no size (e.g. `script`, some CI runners) reports 0 columns: ora divides by it
  // and then loops forever clearing lines, so no spinner there (undefined means 80 to ora).
  if ((io.stderr as NodeJS.WriteStream).columns === 0) return undefined;
  const { default: ora } = await import("ora");
  const spinner = ora({ stream: io.stderr as NodeJS.WriteStream, discardStdin: false });
  let label = "";
  let total: number | undefined;
  let last = 0;
  let started = 0;
  return {
    start(name, size) {
      label = name;
      total = size;
      started = Date.now();
      spinner.start(`Downloading ${label}`);
    },
    update(bytes) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      spinner.text = `Downloading ${label}: ${formatProgress(bytes, total, now - started)}`;
    },
    stop() {
      spinner.stop();
    },
  };
}
