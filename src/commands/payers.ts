import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { LOB_CATEGORIES } from "../contract/index.js";
import { PAYER_CSV_COLUMNS } from "../output/columns.js";
import { buildPayersQuery, payersFlagFor, type PayersFlags } from "../requests/payers.js";
import { runListCommand } from "./list-command.js";
import { collect, examples, fieldsOption, withContext } from "./shared.js";

type Opts = PayersFlags & { dryRun?: boolean; fields?: string[] };

/** `coverage payers` → `GET /v1/payers`. */
export function registerPayers(program: Command, run: RunEnvironment): void {
  program
    .command("payers")
    .description("list payers with at least one policy, past or present")
    .option(
      "--lob <categories>",
      `only payers with policies in these LOB categories: ${LOB_CATEGORIES.join(", ")} (repeatable, comma-separated)`,
      collect,
    )
    .option("--limit <n>", "results per page, 1-100 (default 20)")
    .option("--offset <n>", "results to skip (default 0)")
    .option("--all", "fetch every page (add --limit 100 for fewer requests)")
    .option("--dry-run", "print the request instead of sending it")
    .addOption(fieldsOption(PAYER_CSV_COLUMNS))
    .addHelpText(
      "after",
      examples([
        "coverage payers",
        "coverage payers --lob medicare_advantage,medicaid",
        "coverage payers --all --format csv",
      ]),
    )
    .action(
      withContext<Opts>(run, (ctx, opts) =>
        runListCommand(ctx, {
          input: buildPayersQuery(opts),
          build: (client, input) => client.build.payers(input, payersFlagFor),
          send: (client, request) => client.payers(request),
          all: Boolean(opts.all),
          dryRun: Boolean(opts.dryRun),
          fields: opts.fields,
          fieldNames: { item: PAYER_CSV_COLUMNS, columns: PAYER_CSV_COLUMNS },
          view: async (fields) => ({
            renderTable: async (items) =>
              (await import("../output/catalog-view.js")).renderPayerTable(items, ctx.io, fields),
            moreHint: (next) => `More payers: add --offset ${next}, or --all for every page.`,
            emptyMessage: "No payers match.",
            csvColumns: PAYER_CSV_COLUMNS,
          }),
        }),
      ),
    );
}
