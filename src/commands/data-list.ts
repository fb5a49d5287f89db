import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { writeRecord } from "../output/record.js";
import { examples, withContext } from "./shared.js";

/** `coverage data list`: the snapshots of the user's data folder (pulled, or put there). */
export function registerDataList(data: Command, run: RunEnvironment): void {
  data
    .command("list")
    .description("the snapshots of your data folder: name, as_of, size, when pulled, from where")
    .addHelpText(
      "after",
      "\nA snapshot listed here is what --data NAME opens (coverage --data medicare search ...).\n" +
        examples(["coverage data list", "coverage data list --json"]),
    )
    .action(
      withContext<Record<string, never>>(run, async (ctx) => {
        const [{ listSnapshots }, { renderSnapshotList }] = await Promise.all([
          import("../pull/list.js"),
          import("../output/snapshot-list-view.js"),
        ]);
        const { dir, snapshots } = await listSnapshots(ctx.env);
        if (!snapshots.length) {
          const words = `No snapshots in ${dir}. Pull the Medicare catalogue with \`coverage data pull medicare\`.`;
          (ctx.io.stdoutIsTTY ? ctx.io.stdout : ctx.io.stderr).write(`${words}\n`);
          if (ctx.settings.format === "table") return;
        }
        await writeRecord(snapshots, {
          format: ctx.settings.format,
          io: ctx.io,
          rows: snapshots as unknown as Array<Record<string, unknown>>,
          renderTable: () => renderSnapshotList(snapshots, ctx.io),
        });
      }),
    );
}
