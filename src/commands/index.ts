import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { registerCheck } from "./check.js";
import { registerCode } from "./code.js";
import { registerCompletion } from "./completion.js";
import { registerConfig } from "./config.js";
import { registerData } from "./data.js";
import { registerDiff } from "./diff.js";
import { registerDownload } from "./download.js";
import { registerHealth } from "./health.js";
import { registerHelp } from "./help.js";
import { registerLobs } from "./lobs.js";
import { registerMatrix } from "./matrix.js";
import { registerMcp } from "./mcp.js";
import { registerPayers } from "./payers.js";
import { registerPolicy } from "./policy.js";
import { registerSearch } from "./search.js";
import { registerUpdates } from "./updates.js";
import { registerVersions } from "./versions.js";
import { registerServe } from "./serve.js";

// By name, in the order `--help` lists them.
const COMMANDS: ReadonlyArray<readonly [string, (program: Command, run: RunEnvironment) => void]> =
  [
    ["search", registerSearch],
    ["policy", registerPolicy],
    ["payers", registerPayers],
    ["lobs", registerLobs],
    ["updates", registerUpdates],
    ["code", registerCode],
    ["matrix", registerMatrix],
    ["versions", registerVersions],
    ["diff", registerDiff],
    ["check", registerCheck],
    ["download", registerDownload],
    ["health", registerHealth],
    ["config", registerConfig],
    ["completion", registerCompletion],
    ["serve", registerServe],
    ["mcp", registerMcp],
    ["data", registerData],
  ];

/** The names of the subcommands that `registerCommands` can add alone. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map(([name]) => name);

/**
 * Adds the subcommands to the program, in the order `--help` lists them: every one, or only
 * `only` for a run that dispatches to it (see src/cli/program.ts).
 */
export function registerCommands(program: Command, run: RunEnvironment, only?: string): void {
  for (const [name, register] of COMMANDS)
    if (only === undefined || name === only) register(program, run);
  // A run dispatching to one command never reaches `help` (help anywhere registers them all).
  if (only === undefined) registerHelp(program);
  else program.helpCommand(false);
}
