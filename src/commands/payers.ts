import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { LobCategory } from "../contract/index.js";
import { fetchPages } from "../backend/paginate.js";
import { PAYER_CSV_COLUMNS, renderPayerTable } from "../output/catalog-view.js";
import { writeList } from "../output/list.js";
import { buildPayersQuery, payersFlagFor, type PayersFlags } from "../requests/payers.js";
import { collect, examples, withContext } from "./shared.js";

type Opts = PayersFlags & { dryRun?: boolean };

/** `coverage payers` → `GET /v1/payers`. */
export function registerPayers(program: Command, run: RunEnvironment): void {
  program
    .command("payers")
    .description("list payers with at least one policy, past or present")
    .option(
      "--lob <categories>",
      `only payers with policies in these LOB categories: ${LobCategory.options.join(", ")} (repeatable, comma-separated)`,
      collect,
    )
    .option("--limit <n>", "results per page, 1-100 (default 20)")
    .option("--offset <n>", "results to skip (default 0)")
    .option("--all", "fetch every page")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      examples([
        "coverage payers",
        "coverage payers --lob medicare_advantage,medicaid",
        "coverage payers --all --format csv",
      ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts) => {
        const query = buildPayersQuery(opts);
        const build = (q: Record<string, unknown>) =>
          ctx.offlineClient().build.payers(q, payersFlagFor);
        const request = build(query);
        if (opts.dryRun) return ctx.printDryRun(request);
        const client = await ctx.client();
        const start = typeof query.offset === "number" ? query.offset : 0;
        const pages = fetchPages(
          Boolean(opts.all),
          (offset) => client.payers(offset === start ? request : build({ ...query, offset })),
          start,
          ctx.warn,
        );
        await writeList(pages, {
          format: ctx.settings.format,
          io: ctx.io,
          all: Boolean(opts.all),
          renderTable: (items) => renderPayerTable(items, ctx.io),
          moreHint: (next) => `More payers: add --offset ${next}, or --all for every page.`,
          emptyMessage: "No payers match.",
          csvColumns: PAYER_CSV_COLUMNS,
        });
      }),
    );
}
