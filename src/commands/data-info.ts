import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { writeRecord } from "../output/record.js";
import { examples, withContext } from "./shared.js";

/** `coverage data info [FILE]`: format, version, as_of, source, counts and size of a dataset. */
export function registerDataInfo(data: Command, run: RunEnvironment): void {
  data
    .command("info")
    .description("format, version, as_of, source, counts and size of a snapshot or JSON dataset")
    .argument(
      "[file]",
      "a snapshot or JSON dataset, or the name of a pulled snapshot (default: --data / COVERAGE_DATA, else the bundled data)",
    )
    .addHelpText(
      "after",
      examples(["coverage data info", "coverage data info catalogue.db --json"]),
    )
    .action(
      withContext<Record<string, never>>(run, async (ctx, _flags, [file]) => {
        const [{ describeDataset }, { bundledDatasetPath }, { renderDatasetInfo }] =
          await Promise.all([
            import("../snapshot/info.js"),
            import("../dataset/load.js"),
            import("../output/dataset-info-view.js"),
          ]);
        const { resolveNamedData } = await import("../dataset/data-dir.js");
        const given =
          file === undefined
            ? ctx.settings.backend.kind === "local"
              ? ctx.settings.backend.data
              : undefined
            : await resolveNamedData(file as string, ctx.env);
        const info = await describeDataset(given ?? bundledDatasetPath());
        await writeRecord(info, {
          format: ctx.settings.format,
          io: ctx.io,
          renderTable: () => renderDatasetInfo(info),
        });
      }),
    );
}
