import path from "node:path";
import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { createProgressLine } from "../output/progress-line.js";
import { examples, withContext } from "./shared.js";

interface ExportFlags {
  output?: string;
  force?: boolean;
}

/** `coverage data export SNAPSHOT.db -o DATASET.json`: the reverse of build, exact. */
export function registerDataExport(data: Command, run: RunEnvironment): void {
  data
    .command("export")
    .description("write a snapshot back as a JSON dataset (the reverse of build, round trip exact)")
    .argument("<snapshot>", "the snapshot to read")
    .requiredOption(
      "-o, --output <file>",
      "the JSON dataset to write (temporary name, renamed when complete)",
    )
    .option("--force", "replace an existing output file")
    .addHelpText("after", examples(["coverage data export catalogue.db -o catalogue.json"]))
    .action(
      withContext<ExportFlags>(run, async (ctx, flags, [input]) => {
        const output = flags.output as string;
        const { exportSnapshot } = await import("../snapshot/export.js");
        const progress = createProgressLine(ctx.io, ctx.settings.quiet);
        try {
          const { versions } = await exportSnapshot(input as string, output, {
            force: flags.force,
            onProgress: (done, total) =>
              progress.update(`exporting ${path.basename(output)}: ${done} of ${total} versions`),
          });
          progress.done();
          ctx.notice(`wrote ${output}: ${versions} versions`);
        } finally {
          progress.done();
        }
      }),
    );
}
