import path from "node:path";
import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { outputComplete } from "../files/temp-output.js";
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
      "the JSON dataset to write (temporary name, renamed when complete), or - for stdout",
    )
    .option("--force", "replace an existing output file")
    .addHelpText(
      "after",
      examples([
        "coverage data export catalogue.db -o catalogue.json",
        "coverage data export catalogue.db -o - | gzip > catalogue.json.gz",
      ]),
    )
    .action(
      withContext<ExportFlags>(run, async (ctx, flags, [input]) => {
        const output = flags.output as string;
        const { exportSnapshot } = await import("../snapshot/export.js");
        const progress = createProgressLine(ctx.io, ctx.settings.quiet);
        try {
          const { versions } = await exportSnapshot(input as string, output, {
            force: flags.force,
            signal: ctx.signal,
            stdout: ctx.io.stdout,
            onProgress: (done, total) =>
              progress.update(
                `exporting ${output === "-" ? "to stdout" : path.basename(output)}: ${done} of ${total} versions`,
              ),
          });
          if (output !== "-") outputComplete();
          run.completed?.();
          progress.done();
          ctx.notice(`wrote ${output === "-" ? "stdout" : output}: ${versions} versions`);
        } finally {
          progress.done();
        }
      }),
    );
}
