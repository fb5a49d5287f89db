import { createProgram } from "./program.js";
import { asksVerbose, runTree } from "./run-tree.js";
import type { RunEnvironment } from "./context.js";

export { asksVerbose };

/** Runs the CLI over argv and resolves to the exit code; never throws. */
export async function runCli(argv: string[], run: RunEnvironment): Promise<number> {
  return runTree(createProgram, argv, { ...run, runCli });
}
