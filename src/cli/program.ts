import type { Command } from "commander";
import { COMMAND_NAMES, registerCommands } from "../commands/index.js";
import type { RunEnvironment } from "./context.js";
import {
  commandToRegister as commandOf,
  createRootProgram,
  type CommandSet,
} from "./root-program.js";
import { VERSION } from "./version.js";

export { VERSION };

/** Every command: the tree of dist/bundle.cjs, help, completions and docs/commands.md. */
export const ALL_COMMANDS: CommandSet = { names: COMMAND_NAMES, register: registerCommands };

/**
 * The command tree; also what completions and README tables are generated from. Given the argv
 * it will parse, it holds only what that run can reach: see `commandToRegister`.
 */
export function createProgram(run: RunEnvironment, argv?: readonly string[]): Command {
  return createRootProgram(ALL_COMMANDS, run, argv);
}

/** The one subcommand a run of the whole tree needs, or undefined for all of them. */
export function commandToRegister(program: Command, argv: readonly string[]): string | undefined {
  return commandOf(program, argv, COMMAND_NAMES);
}
