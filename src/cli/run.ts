import { createProgram } from "./program.js";
import { reportError } from "./report-error.js";
import type { RunEnvironment } from "./context.js";

/** Runs the CLI over argv and resolves to the exit code; never throws. */
export async function runCli(argv: string[], run: RunEnvironment): Promise<number> {
  const program = createProgram(run);
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (err) {
    // The parsed option when parsing got that far; argv when the error is commander's own.
    const parsed = program.opts<{ verbose?: boolean }>().verbose;
    return reportError(err, run.stderr ?? process.stderr, parsed ?? asksVerbose(argv));
  }
}

/** `--verbose`, `-v` or a group of short flags holding `v` (`-qv`), before any `--`. */
export function asksVerbose(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some(
    (arg) => arg === "--verbose" || /^-[A-Za-z]*v[A-Za-z]*$/.test(arg),
  );
}
