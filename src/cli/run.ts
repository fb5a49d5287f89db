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
    const verbose = argv.includes("--verbose") || argv.includes("-v");
    return reportError(err, run.stderr ?? process.stderr, verbose);
  }
}
