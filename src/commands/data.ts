import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { registerDataBuild } from "./data-build.js";
import { registerDataChanges } from "./data-changes.js";
import { registerDataExport } from "./data-export.js";
import { registerDataImport } from "./data-import.js";
import { registerDataInfo } from "./data-info.js";
import { registerDataList } from "./data-list.js";
import { registerDataPull } from "./data-pull.js";

/** Each `coverage data` subcommand registers itself on the group (add new ones to this list). */
const DATA_SUBCOMMANDS: Array<(data: Command, run: RunEnvironment) => void> = [
  registerDataBuild,
  registerDataExport,
  registerDataInfo,
  registerDataImport,
  registerDataPull,
  registerDataList,
  registerDataChanges,
];

/** `coverage data`: snapshots (the dataset compiled into an indexed SQLite file) and real data. */
export function registerData(program: Command, run: RunEnvironment): void {
  const data = program
    .command("data")
    .description(
      "local data: pull the real Medicare catalogue, compile a JSON dataset into a snapshot, export it back, describe it, import the CMS Medicare Coverage Database",
    )
    .addHelpText(
      "after",
      "\nSnapshots need Node.js 22.13 or newer (node:sqlite). --data FILE and COVERAGE_DATA accept\na JSON dataset or a snapshot, told apart by content; both give the same answers.\n",
    );
  for (const register of DATA_SUBCOMMANDS) register(data, run);
}
