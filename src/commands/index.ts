import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { registerSearch } from "./search.js";

/** Adds every subcommand to the program, in the order `--help` lists them. */
export function registerCommands(program: Command, run: RunEnvironment): void {
  registerSearch(program, run);
}
