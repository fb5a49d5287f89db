import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { LobCategory } from "../contract/index.js";
import { UPDATE_CSV_COLUMNS } from "../output/columns.js";
import { parseCodeFlag, parseLobs, splitList } from "../requests/parse-flags.js";
import { buildUpdatesQuery, updatesFlagFor, type UpdatesFlags } from "../requests/updates.js";
import type { UpdateNarrowing } from "../views/update-changes.js";
import { runListCommand } from "./list-command.js";
import { collect, examples, withContext } from "./shared.js";

type Opts = UpdatesFlags & {
  dryRun?: boolean;
  payer?: string[];
  lob?: string[];
  code?: string[];
  changes?: boolean;
};

/** `coverage updates` → `GET /v1/policies/updates`. */
export function registerUpdates(program: Command, run: RunEnvironment): void {
  program
    .command("updates")
    .description("recent new and updated policies, grouped by effective date, then payer")
    .option("--days <n>", "look back N days, 1-365 (default 30; sent as `days` only when given)")
    .option("--payer <ids>", "only these payers' items (repeatable, comma-separated)", collect)
    .option(
      "--lob <categories>",
      `only versions in these LOB categories: ${LobCategory.options.join(", ")}`,
      collect,
    )
    .option(
      "--code <system:codes>",
      "only versions listing one of these codes (repeatable)",
      collect,
    )
    .option(
      "--changes",
      "classify each item against its predecessor: new, codes changed, criteria changed, applicability changed, metadata only",
    )
    .option("--limit <n>", "results per page, 1-100 (default 20)")
    .option("--offset <n>", "results to skip (default 0)")
    .option("--all", "fetch every page (add --limit 100 for fewer requests)")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      "\n--payer, --lob and --code narrow each page the API sends (so a page may hold fewer items):\n" +
        "--payer on the item, --lob and --code on the version's detail (GET /v1/policies/{id}).\n" +
        "--changes adds `changes` and `predecessor_id` to each item (also in --json); the\n" +
        "predecessor is found as `coverage versions` finds versions, then both details compared.\n" +
        "At most 300 details per run.\n" +
        examples([
          "coverage updates",
          "coverage updates --days 90 --changes --lob commercial",
          "coverage updates --days 7 --format csv",
        ]),
    )
    .action(
      withContext<Opts>(run, (ctx, opts) => {
        const narrowing: UpdateNarrowing = {
          payerIds: splitList(opts.payer),
          lobs: parseLobs(opts.lob),
          refs: opts.code?.map(parseCodeFlag),
        };
        const reshape = Boolean(opts.payer || opts.lob || opts.code || opts.changes);
        let transform: ReturnType<
          typeof import("../views/fetch-updates.js").createUpdatesTransform
        >;
        return runListCommand(ctx, {
          input: buildUpdatesQuery(opts),
          build: (client, input) => client.build.updates(input, updatesFlagFor),
          send: (client, request) => client.updates(request),
          transform: reshape
            ? async (client, page) => {
                transform ??= (await import("../views/fetch-updates.js")).createUpdatesTransform(
                  client,
                  narrowing,
                  Boolean(opts.changes),
                );
                return transform(page);
              }
            : undefined,
          all: Boolean(opts.all),
          dryRun: Boolean(opts.dryRun),
          view: async () => ({
            renderTable: async (items) =>
              (await import("../output/updates-view.js")).renderUpdatesTable(items, ctx.io),
            moreHint: (next) => `More updates: add --offset ${next}, or --all for every page.`,
            emptyMessage: `No new or updated policies in the last ${opts.days ?? 30} days${reshape && !opts.changes ? " that match" : ""}.`,
            csvColumns: UPDATE_CSV_COLUMNS,
          }),
        });
      }),
    );
}
