import { createProgram } from "./program.js";
import { reportError } from "./report-error.js";
import type { RunEnvironment } from "./context.js";

/** Runs the CLI over argv and resolves to the exit code; never throws. */
export async function runCli(argv: string[], run: RunEnvironment): Promise<number> {
  const program = createProgram({ ...run, runCli }, argv);
  let parsed = false;
  program.hook("preAction", () => {
    parsed = true;
  });
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (err) {
    // Once an action runs, commander's parse is the truth; before that the error is commander's
    // own (an unknown flag, a missing value) and only argv can say whether -v was asked for.
    const verbose = parsed
      ? program.opts<{ verbose?: boolean }>().verbose === true
      : asksVerbose(argv);
    return reportError(err, run.stderr ?? process.stderr, verbose);
  }
}

/** `--verbose`, `-v` or a group of short flags holding `v` (`-qv`), before any `--`. */
export function asksVerbose(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some(
    (arg) => arg === "--verbose" || /^-[A-Za-z]*v[A-Za-z]*$/.test(arg),
  );
}
