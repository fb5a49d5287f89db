import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { sayDayCountedFrom } from "./api-day.js";
import { LOB_CATEGORIES } from "../contract/index.js";
import { listUpdateFields, UPDATE_CSV_COLUMNS } from "../output/columns.js";
import {
  buildUpdatesNarrowing,
  buildUpdatesQuery,
  updatesFlagFor,
  type UpdatesFlags,
  type UpdatesNarrowingFlags,
} from "../requests/updates.js";
import { runListCommand } from "./list-command.js";
import { collect, examples, fieldsOption, withContext } from "./shared.js";
import { createLazyUpdatesTransform } from "./view-command.js";

type Opts = UpdatesFlags &
  UpdatesNarrowingFlags & { dryRun?: boolean; changes?: boolean; fields?: string[] };

/** `coverage updates` → `GET /v1/policies/updates`. */
export function registerUpdates(program: Command, run: RunEnvironment): void {
  program
    .command("updates")
    .description("recent new and updated policies, grouped by effective date, then payer")
    .option("--days <n>", "look back N days, 1-365 (default 30; sent as `days` only when given)")
    .option("--payer <ids>", "only these payers' items (repeatable, comma-separated)", collect)
    .option(
      "--lob <categories>",
      `only these LOB categories: ${LOB_CATEGORIES.join(", ")}`,
      collect,
    )
    .option(
      "--code <system:codes>",
      "only versions listing one of these codes (repeatable)",
      collect,
    )
    .option("--changes", "classify each item against its predecessor (see below)")
    .option("--limit <n>", "results per page, 1-100 (default 20)")
    .option("--offset <n>", "results to skip (default 0)")
    .option("--all", "fetch every page (add --limit 100 for fewer requests)")
    .option("--dry-run", "print the request instead of sending it")
    .addOption(fieldsOption(listUpdateFields(true)))
    .addHelpText(
      "after",
      "\n--payer, --lob and --code narrow the items the API sends; pages are read until --limit\n" +
        "items match (or the list ends), and stderr says when more remain:\n" +
        "--payer on the item, --lob (the item's payer in that category) and --code on the\n" +
        "version's detail (GET /v1/policies/{id}). --changes adds `changes` (new, codes changed,\n" +
        "criteria changed, applicability changed, metadata only) and `predecessor_id` to each item,\n" +
        "also in --json: the predecessor is found as `coverage versions` finds versions, then both\n" +
        "details are compared. At most 300 details per run.\n" +
        examples([
          "coverage updates",
          "coverage updates --days 90 --changes --lob commercial",
          "coverage updates --days 7 --format csv",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts) => {
        const narrowing = buildUpdatesNarrowing(opts);
        const names = listUpdateFields(Boolean(opts.changes));
        const classify = createLazyUpdatesTransform(narrowing, Boolean(opts.changes));
        // On a pulled snapshot, --changes also gives CMS's reason for each version.
        const transform: typeof classify = opts.changes
          ? async (client, page) => {
              const done = classify ? await classify(client, page) : page;
              const { addCmsReasons } = await import("../pull/revision-notes.js");
              return { ...done, data: addCmsReasons(client.transport, done.data) };
            }
          : classify;
        await runListCommand(ctx, {
          input: buildUpdatesQuery(opts),
          build: (client, input) => client.build.updates(input, updatesFlagFor),
          send: (client, request) => client.updates(request),
          transform,
          fillKey: narrowing ? (u) => u.policy_id : undefined,
          all: Boolean(opts.all),
          dryRun: Boolean(opts.dryRun),
          fields: opts.fields,
          fieldNames: { item: names, columns: names },
          view: async (fields) => ({
            renderTable: async (items) =>
              (await import("../output/updates-view.js")).renderUpdatesTable(items, ctx.io, fields),
            moreHint: (next) => `More updates: add --offset ${next}, or --all for every page.`,
            emptyMessage: `No new or updated policies in the last ${opts.days ?? 30} day${Number(opts.days ?? 30) === 1 ? "" : "s"}${narrowing ? " that match" : ""}.`,
            csvColumns: UPDATE_CSV_COLUMNS,
          }),
        });
        // After the answer (a bad flag is said alone), so what was counted is clear.
        if (!opts.dryRun) await sayDayCountedFrom(ctx);
      }),
    );
}
