/** How the process ends at once (set by src/cli/process-main.ts, the one place that exits). */
let exitProcess: ((code: number) => void) | undefined;

/** Set by the CLI's entry point: what `exitNow` calls. */
export function setExitProcess(exit: (code: number) => void): void {
  exitProcess = exit;
}

/**
 * Ends the process with `code` (a signal handler whose clean-up is done). In a process that
 * is not the CLI's own (tests running it in-process), only the exit code is set.
 */
export function exitNow(code: number): void {
  if (exitProcess) exitProcess(code);
  else process.exitCode = code;
}
