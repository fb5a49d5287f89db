import { TerminatedError } from "../errors.js";

/** The signals besides Ctrl-C that stop a download: `kill`, `timeout`, CI, a closed terminal. */
const SIGNALS = { SIGTERM: 15, SIGHUP: 1 } as const;
export type Terminating = keyof typeof SIGNALS;

/**
 * Runs `task` with a signal that aborts on the run's own signal (Ctrl-C) and also on SIGTERM
 * and SIGHUP, whose default action would kill the process with the temporary file still on
 * disk. Stopped by one of those, it fails with exit 128 + the signal's number and `describe`'s
 * message.
 */
export async function runTerminable<T>(
  signal: AbortSignal,
  task: (signal: AbortSignal) => Promise<T>,
  describe: (by: Terminating) => string = (by) =>
    `download stopped by ${by}; no partial file was left`,
): Promise<T> {
  const ctrl = new AbortController();
  let by: Terminating | undefined;
  const onRun = () => ctrl.abort(signal.reason);
  if (signal.aborted) onRun();
  else signal.addEventListener("abort", onRun, { once: true });
  const release = () => {
    for (const [name, handler] of handlers) process.off(name, handler);
  };
  // After the cleanup (or a second signal), die the way the signal would have killed us.
  const reraise = (name: Terminating) => {
    release();
    process.kill(process.pid, name);
  };
  const handlers = (Object.keys(SIGNALS) as Terminating[]).map((name) => {
    const handler = () => {
      if (by) return reraise(name);
      by = name;
      process.exitCode = 128 + SIGNALS[name];
      ctrl.abort();
      // Cleanup takes milliseconds; a stdout nobody reads could keep the process alive.
      setTimeout(() => reraise(name), 3000).unref();
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  try {
    return await task(ctrl.signal);
  } catch (err) {
    if (by) throw new TerminatedError(describe(by), SIGNALS[by]);
    throw err;
  } finally {
    signal.removeEventListener("abort", onRun);
    release();
  }
}
