import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { writeRecord } from "../output/record.js";
import { examples, withContext } from "./shared.js";

/** `coverage data changes`: what the pulls of the Medicare catalogue found, document by document. */
export function registerDataChanges(data: Command, run: RunEnvironment): void {
  data
    .command("changes")
    .description("what changed in the Medicare catalogue between pulls, document by document")
    .option("--since <date>", "only changes seen in exports of this day or later (YYYY-MM-DD)")
    .option("--days <n>", "only changes of the last N days, counted from the snapshot's date")
    .addHelpText(
      "after",
      "\nEach pull of `coverage data pull medicare` compares the export with the snapshot and records\nwhat changed: documents new, revised (text or dates), with code links changed only, or retired,\nwith their versions and the code links gained and lost. A change of markup or white space only\nis no revision.\n" +
        examples(["coverage data changes", "coverage data changes --since 2026-08-01 --json"]),
    )
    .action(
      withContext<{ since?: string; days?: string }>(run, async (ctx, opts) => {
        const [{ readPulledChanges }, { flattenChange, renderChanges }] = await Promise.all([
          import("../pull/changes-read.js"),
          import("../output/changes-view.js"),
        ]);
        const answer = await readPulledChanges(ctx.env, opts.since, opts.days);
        await writeRecord(answer, {
          format: ctx.settings.format,
          io: ctx.io,
          rows: answer.changes.map(flattenChange),
          renderTable: () => renderChanges(answer.changes, answer.as_of, answer.future_retirements),
        });
      }),
    );
}
