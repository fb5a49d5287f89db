import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { registerDataImport } from "./data-import.js";

/** `coverage data`: local datasets and snapshots (build, export, info, import). */
export function registerData(program: Command, run: RunEnvironment): Command {
  const data = program
    .command("data")
    .description("local datasets and snapshots: import the CMS Medicare Coverage Database");
  registerDataImport(data, run);
  return data;
}
