import type { Io } from "../output/terminal.js";
import { importEsm } from "../import-esm.js";
import type { ProgressSink } from "./save-file.js";

/** Bytes for people: `512 B`, `1.5 KB`, `3.2 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** A spinner with the byte count on stderr; only on a TTY (never on pipes, never with --quiet). */
export async function createProgress(
  io: Pick<Io, "stderr" | "stderrIsTTY">,
  quiet: boolean,
): Promise<ProgressSink | undefined> {
  if (!io.stderrIsTTY || quiet) return undefined;
  // A pty with no size (e.g. `script`, some CI runners) reports 0 columns: ora divides by it
  // and then loops forever clearing lines, so no spinner there (undefined means 80 to ora).
  if ((io.stderr as NodeJS.WriteStream).columns === 0) return undefined;
  const { default: ora } = await importEsm("ora");
  const spinner = ora({ stream: io.stderr as NodeJS.WriteStream, discardStdin: false });
  let label = "";
  let total: number | undefined;
  let last = 0;
  return {
    start(name, size) {
      label = name;
      total = size;
      spinner.start(`Downloading ${label}`);
    },
    update(bytes) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      spinner.text = `Downloading ${label}: ${formatBytes(bytes)}${total ? ` of ${formatBytes(total)}` : ""}`;
    },
    stop() {
      spinner.stop();
    },
  };
}
