import path from "node:path";
import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { UsageError } from "../errors.js";
import { checkInputFile } from "../files/input-file.js";
import { outputComplete } from "../files/temp-output.js";
import { createProgressLine } from "../output/progress-line.js";
import { examples, withContext } from "./shared.js";

interface BuildFlags {
  output?: string;
  force?: boolean;
}

/** `coverage data build DATASET.json -o SNAPSHOT.db`: a JSON dataset compiled into a snapshot. */
export function registerDataBuild(data: Command, run: RunEnvironment): void {
  data
    .command("build")
    .description("compile a JSON dataset (checked as --data checks it) into a snapshot")
    .argument("<dataset>", "the JSON dataset (coverage-dataset version 1), any size")
    .requiredOption(
      "-o, --output <file>",
      "the snapshot to write (temporary name, renamed when complete; not - : a snapshot is no stream)",
    )
    .option("--force", "replace an existing output file")
    .addHelpText(
      "after",
      examples([
        "coverage data build fixtures/dataset.json -o catalogue.db",
        "coverage --data catalogue.db search --code ICD10CM:E11.9 --state CA",
      ]),
    )
    .action(
      withContext<BuildFlags>(run, async (ctx, flags, [input]) => {
        const file = input as string;
        const output = flags.output as string;
        const [{ openSnapshotWriter }, { streamDataset }, { isSqliteFile }] = await Promise.all([
          import("../snapshot/writer.js"),
          import("../dataset/stream.js"),
          import("../snapshot/sqlite.js"),
        ]);
        checkInputFile(file, "");
        if (isSqliteFile(file))
          throw new UsageError(`${file} is a snapshot already`, "Give build a JSON dataset.");
        const progress = createProgressLine(ctx.io, ctx.settings.quiet);
        const show = (stage: string, s: { policies: number; codeLinks: number }) =>
          progress.update(
            `${stage} ${path.basename(output)}: ${s.policies.toLocaleString("en-US")} versions, ${s.codeLinks.toLocaleString("en-US")} code links`,
          );
        const sink = await openSnapshotWriter(output, {
          force: flags.force,
          onProgress: show,
          signal: ctx.signal,
        });
        try {
          const head = await streamDataset(file, sink);
          const summary = await sink.finish({ ...head, source: path.basename(file) });
          outputComplete();
          run.completed?.();
          progress.done();
          ctx.notice(
            `wrote ${output}: ${summary.policies} versions, ${summary.codeLinks} code links`,
          );
        } catch (err) {
          progress.done();
          await sink.abort();
          throw err;
        }
      }),
    );
}
