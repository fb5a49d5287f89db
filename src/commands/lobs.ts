import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { LOB_CATEGORIES } from "../contract/index.js";
import { LOB_CSV_COLUMNS } from "../output/columns.js";
import { buildLobsQuery, LOBS_ID_FIELDS, lobsFlagFor, type LobsFlags } from "../requests/lobs.js";
import { runListCommand } from "./list-command.js";
import { stateExpansionNotice } from "../requests/parse-flags.js";
import { SUB_STATE_HELP } from "../requests/sub-states.js";
import { collect, EXACT_STATE_FLAG, examples, fieldsOption, withContext } from "./shared.js";

type Opts = LobsFlags & { dryRun?: boolean; fields?: string[] };

/** With --state, what the list leaves out (every other --state keeps nationwide scopes). */
function nationwideNote(opts: Opts): string | undefined {
  if (!opts.state?.length) return undefined;
  const rest = [
    ...(opts.payer?.length ? ["--payer", opts.payer.join(",")] : []),
    ...(opts.lob?.length ? ["--lob", opts.lob.join(",")] : []),
  ];
  return `Nationwide lines of business are left out (--state matches a LOB's own state): \`${["coverage lobs", ...rest].join(" ")}\` lists them too.`;
}

/** `coverage lobs` → `GET /v1/lobs`. */
export function registerLobs(program: Command, run: RunEnvironment): void {
  program
    .command("lobs")
    .description("list lines of business (a payer's product in a category, optionally one state)")
    .option(
      "--lob <categories>",
      `LOB categories: ${LOB_CATEGORIES.join(", ")} (repeatable, comma-separated)`,
      collect,
    )
    .option("--payer <ids>", "payer ids (repeatable, comma-separated)", collect)
    .option(
      "--state <codes>",
      "state or jurisdiction codes, any case; exact match, so nationwide LOBs are left out (stderr says so)",
      collect,
    )
    .option(...EXACT_STATE_FLAG)
    .option("--limit <n>", "results per page, 1-100 (default 20)")
    .option("--offset <n>", "results to skip (default 0)")
    .option("--all", "fetch every page (add --limit 100 for fewer requests)")
    .option("--dry-run", "print the request instead of sending it")
    .addOption(fieldsOption(LOB_CSV_COLUMNS))
    .addHelpText(
      "after",
      SUB_STATE_HELP +
        examples([
          "coverage lobs --payer AETNA",
          "coverage lobs --state ca,ny --lob commercial",
          "coverage lobs --payer CMS --all --json",
        ]),
    )
    .action(
      withContext<Opts>(run, (ctx, opts) => {
        const input = buildLobsQuery(opts);
        const widened = stateExpansionNotice(opts);
        if (widened) ctx.inform(widened);
        const nationwide = nationwideNote(opts);
        if (nationwide) ctx.inform(nationwide);
        return runListCommand(ctx, {
          input,
          build: (client, input) => client.build.lobs(input, lobsFlagFor),
          send: (client, request) => client.lobs(request),
          all: Boolean(opts.all),
          dryRun: Boolean(opts.dryRun),
          idFields: LOBS_ID_FIELDS,
          fields: opts.fields,
          fieldNames: { item: LOB_CSV_COLUMNS, columns: LOB_CSV_COLUMNS },
          view: async (fields) => ({
            renderTable: async (items) =>
              (await import("../output/catalog-view.js")).renderLobTable(items, ctx.io, fields),
            moreHint: (next) =>
              `More lines of business: add --offset ${next}, or --all for every page.`,
            emptyMessage: "No lines of business match.",
            csvColumns: LOB_CSV_COLUMNS,
          }),
        });
      }),
    );
}
