import type { Command } from "commander";
import { registerSearch } from "../commands/search.js";
import type { RunEnvironment } from "./context.js";
import { runProcess } from "./process-main.js";
import { createRootProgram, type CommandSet } from "./root-program.js";
import { runTree } from "./run-tree.js";

// The bundle of a search (dist/search.cjs): dist/cli.cjs starts it instead of dist/bundle.cjs
// when argv dispatches to `search` (src/cli/dispatch.ts), a run whose tree holds `search` alone
// anyway (src/cli/root-program.ts, commandToRegister). It holds none of the other commands'
// code, so a search reads, checks and runs the top level of ~40% of the bundle's bytes
// (docs/performance.md, "Start-up").
const SEARCH_ONLY: CommandSet = {
  names: ["search"],
  register(program: Command, run: RunEnvironment) {
    registerSearch(program, run);
    program.helpCommand(false);
  },
};

const createSearchProgram = (run: RunEnvironment, argv: readonly string[]) =>
  createRootProgram(SEARCH_ONLY, run, argv);

/** Runs `coverage search` as this process. */
export async function main(argv: string[]): Promise<void> {
  return runProcess(argv, (args, run) => runTree(createSearchProgram, args, run));
}
