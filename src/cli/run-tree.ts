import type { Command } from "commander";
import { reportError } from "./report-error.js";
import type { RunEnvironment } from "./context.js";

/** Builds the command tree a run parses (every command, or `search` alone). */
export type ProgramFactory = (run: RunEnvironment, argv: readonly string[]) => Command;

/** The CLI over argv with a tree from `create`: resolves to the exit code; never throws. */
export async function runTree(
  create: ProgramFactory,
  argv: string[],
  run: RunEnvironment,
): Promise<number> {
  const program = create(run, argv);
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
