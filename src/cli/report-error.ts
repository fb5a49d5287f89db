import { CommanderError } from "commander";
import { CliError, ExitCode, InterruptedError } from "../errors.js";
import { stripControls } from "../output/terminal.js";

/** Maps any thrown value to an exit code, printing what went wrong and what to do next. */
export function reportError(err: unknown, stderr: NodeJS.WritableStream, verbose: boolean): number {
  if (err instanceof CommanderError) {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version")
      return ExitCode.ok;
    // `coverage help [command]` asks for help (0); bare `coverage` shows it as an error (1 -> 2).
    if (err.code === "commander.help" && err.exitCode === 0) return ExitCode.ok;
    // commander has printed its own message already.
    return ExitCode.usage;
  }
  if (err instanceof CliError) {
    const lines = [`error: ${err.message}`, ...err.details.map((d) => `  ${d}`)];
    if (err.suggestion) lines.push(err.suggestion);
    if (verbose && err.stack && !(err instanceof InterruptedError)) lines.push(err.stack);
    // Messages quote the server's `detail` and dataset values: no escape sequence reaches a TTY.
    stderr.write(stripControls(lines.join("\n")) + "\n");
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  if (e.name === "AbortError") {
    stderr.write("interrupted\n");
    return ExitCode.interrupted;
  }
  const lines = [`error: ${e.message}`];
  lines.push(
    verbose && e.stack
      ? e.stack
      : "Run again with --verbose for details, or report it with the command you ran.",
  );
  stderr.write(stripControls(lines.join("\n")) + "\n");
  return ExitCode.failure;
}
