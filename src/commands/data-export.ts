import path from "node:path";
import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { VERSION } from "../cli/version.js";
import { outputComplete } from "../files/temp-output.js";
import { createProgressLine } from "../output/progress-line.js";
import { examples, takeFileFormat, withContext } from "./shared.js";

interface ExportFlags {
  output?: string;
  force?: boolean;
  /** The root's --format, moved here by the action (json or parquet). */
  format?: string;
}

const FORMATS = ["json", "parquet"];

/** `coverage data export SNAPSHOT.db -o DATASET.json` (the reverse of build), or Parquet tables. */
export function registerDataExport(data: Command, run: RunEnvironment): void {
  data
    .command("export")
    .description(
      "write a snapshot back as a JSON dataset (the reverse of build, round trip exact), or as Parquet tables",
    )
    .argument("<snapshot>", "the snapshot to read")
    .requiredOption(
      "-o, --output <path>",
      "json: the dataset file to write (temporary name, renamed when complete), or - for stdout; parquet: the folder of table files",
    )
    .option(
      "--force",
      "replace an existing output file; parquet: write into a folder holding other files (its Parquet files are replaced)",
    )
    .addHelpText(
      "after",
      examples([
        "coverage data export catalogue.db -o catalogue.json",
        "coverage data export catalogue.db -o - | gzip > catalogue.json.gz",
        "coverage data export catalogue.db --format parquet -o catalogue-parquet",
      ]),
    )
    .action(async (...all: unknown[]) => {
      // cli.md writes `data export --format parquet`: the root's option, taken here.
      (all[all.length - 2] as ExportFlags).format = takeFileFormat(all, FORMATS, "json");
      await action(...all);
    });
  const action = withContext<ExportFlags>(run, async (ctx, flags, [input]) => {
    const output = flags.output as string;
    const progress = createProgressLine(ctx.io, ctx.settings.quiet);
    try {
      let wrote: string;
      if (flags.format === "parquet") {
        const { exportParquet } = await import("../snapshot/parquet-export.js");
        const { tables } = await exportParquet(input as string, output, {
          force: flags.force,
          signal: ctx.signal,
          createdBy: `coverage ${VERSION}`,
          onProgress: (table, rows) => progress.update(`exporting ${table}: ${rows} rows`),
        });
        wrote = `${tables.length} Parquet tables (${tables.map((t) => `${t.name} ${t.rows}`).join(", ")})`;
      } else {
        const { exportSnapshot } = await import("../snapshot/export.js");
        const { versions } = await exportSnapshot(input as string, output, {
          force: flags.force,
          signal: ctx.signal,
          stdout: ctx.io.stdout,
          onProgress: (done, total) =>
            progress.update(
              `exporting ${output === "-" ? "to stdout" : path.basename(output)}: ${done} of ${total} versions`,
            ),
        });
        wrote = `${versions} versions`;
      }
      if (output !== "-") outputComplete();
      run.completed?.();
      progress.done();
      ctx.notice(`wrote ${output === "-" ? "stdout" : output}: ${wrote}`);
    } finally {
      progress.done();
    }
  });
}
