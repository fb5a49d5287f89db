import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
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
import { registerPayers } from "./payers.js";
import { registerPolicy } from "./policy.js";
import { registerSearch } from "./search.js";
import { registerUpdates } from "./updates.js";
import { registerVersions } from "./versions.js";
import { registerServe } from "./serve.js";

/** Adds every subcommand to the program, in the order `--help` lists them. */
export function registerCommands(program: Command, run: RunEnvironment): void {
  registerSearch(program, run);
  registerPolicy(program, run);
  registerPayers(program, run);
  registerLobs(program, run);
  registerUpdates(program, run);
  registerCode(program, run);
  registerMatrix(program, run);
  registerVersions(program, run);
  registerDiff(program, run);
  registerDownload(program, run);
  registerHealth(program, run);
  registerConfig(program, run);
  registerCompletion(program, run);
  registerServe(program, run);
  registerData(program, run);
  registerHelp(program);
}
