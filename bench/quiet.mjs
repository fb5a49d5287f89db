// The quiet check of start-up figures (`--quiet-check`): a ratio to `node -e 0` taken on a loaded
// machine flatters the CLI (under load `node -e 0` slows more than the CLI does), so with the
// flag a figure is refused, not reported, when the 1-minute load average was >= 1 before or
// after it was measured. Every start-up figure prints the load beside it either way.
import os from "node:os";

export const QUIET_CHECK = process.argv.includes("--quiet-check");
/** The load average (1 minute) at or above which a start-up figure is refused. */
export const QUIET_LOAD = 1;

/** The 1-minute load average now. */
export const load1 = () => os.loadavg()[0];

/**
 * Runs `measure` and says whether its figures may be reported: the load before and after,
 * `quiet` false when either was >= 1 (always true without --quiet-check), and `note`, the
 * text printed beside each figure.
 */
export async function underLoadCheck(measure) {
  const before = load1();
  const result = await measure();
  const after = load1();
  const loaded = Math.max(before, after) >= QUIET_LOAD;
  const note = `load ${before.toFixed(2)}->${after.toFixed(2)}${loaded ? " (LOADED)" : ""}`;
  return { result, quiet: !QUIET_CHECK || !loaded, loaded, note };
}

/** The line printed instead of a verdict when --quiet-check refuses a figure. */
export function refusal(name, note) {
  return `REFUSED  ${name}: measured at ${note}; start-up figures need a 1-minute load average < ${QUIET_LOAD} (wait for a quiet machine and run again)`;
}
