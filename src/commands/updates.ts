import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { UPDATE_CSV_COLUMNS } from "../output/columns.js";
import { buildUpdatesQuery, updatesFlagFor, type UpdatesFlags } from "../requests/updates.js";
import { runListCommand } from "./list-command.js";
import { examples, fieldsOption, withContext } from "./shared.js";

type Opts = UpdatesFlags & { dryRun?: boolean; fields?: string[] };

/** `coverage updates` → `GET /v1/policies/updates`. */
export function registerUpdates(program: Command, run: RunEnvironment): void {
  program
    .command("updates")
    .description("recent new and updated policies, grouped by effective date, then payer")
    .option("--days <n>", "look back N days, 1-365 (default 30; sent as `days` only when given)")
    .option("--limit <n>", "results per page, 1-100 (default 20)")
    .option("--offset <n>", "results to skip (default 0)")
    .option("--all", "fetch every page (add --limit 100 for fewer requests)")
    .option("--dry-run", "print the request instead of sending it")
    .addOption(fieldsOption(UPDATE_CSV_COLUMNS))
    .addHelpText(
      "after",
      examples([
        "coverage updates",
        "coverage updates --days 90 --all",
        "coverage updates --days 7 --format csv",
      ]),
    )
    .action(
      withContext<Opts>(run, (ctx, opts) =>
        runListCommand(ctx, {
          input: buildUpdatesQuery(opts),
          build: (client, input) => client.build.updates(input, updatesFlagFor),
          send: (client, request) => client.updates(request),
          all: Boolean(opts.all),
          dryRun: Boolean(opts.dryRun),
          fields: opts.fields,
          fieldNames: { item: UPDATE_CSV_COLUMNS, columns: UPDATE_CSV_COLUMNS },
          view: async (fields) => ({
            renderTable: async (items) =>
              (await import("../output/updates-view.js")).renderUpdatesTable(items, ctx.io, fields),
            moreHint: (next) => `More updates: add --offset ${next}, or --all for every page.`,
            emptyMessage: `No new or updated policies in the last ${opts.days ?? 30} days.`,
            csvColumns: UPDATE_CSV_COLUMNS,
          }),
        }),
      ),
    );
}
