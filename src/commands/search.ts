import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { LobCategory, Sort } from "../contract/index.js";
import { POLICY_CSV_COLUMNS } from "../output/columns.js";
import {
  buildSearchRequest,
  SEARCH_ID_FIELDS,
  searchFlagFor,
  type SearchFlags,
} from "../requests/search.js";
import { runListCommand } from "./list-command.js";
import { collect, examples, readJsonInput, withContext } from "./shared.js";

type Opts = Omit<SearchFlags, "words"> & { body?: string; dryRun?: boolean };

/** `coverage search [words...]` → `POST /v1/policies/filter`. */
export function registerSearch(program: Command, run: RunEnvironment): void {
  const retiredFlags: string[] = [];
  program
    .command("search")
    .description("find policies by text, code, payer, line of business, state and date")
    .argument("[words...]", "full-text query across titles and summaries (same as --query)")
    .option("--query <text>", "full-text query across titles and summaries")
    .option(
      "--code <system:codes>",
      "one system's codes, e.g. CPT:97110,97112 (repeatable)",
      collect,
    )
    .option("--relationship <rels>", "covers, does-not-cover, references (comma list)", collect)
    // --match and --sort are checked by the request schema (not commander's choices) so a bad
    // value is reported like every other one: `body.sort: Input should be ... (--sort)`, exit 2.
    .option("--match <mode>", "across --code refs: any (OR) or all (AND)")
    .option("--payer <ids>", "payer ids (repeatable, comma-separated)", collect)
    .option("--lob <categories>", `LOB categories: ${LobCategory.options.join(", ")}`, collect)
    .option("--lob-id <ids>", "LOB ids (repeatable, comma-separated)", collect)
    .option("--state <codes>", "state codes, any case (nationwide always included)", collect)
    .option("--effective-start <date>", "in effect on or after DATE (YYYY-MM-DD)")
    .option("--effective-end <date>", "taken effect on or before DATE (YYYY-MM-DD)")
    .option("--effective-on <date>", "in effect on DATE (start and end)")
    .option("--retired", "retired versions only")
    .option("--no-retired", "versions not retired (upcoming included)")
    .on("option:retired", () => retiredFlags.push("--retired"))
    .on("option:no-retired", () => retiredFlags.push("--no-retired"))
    .option("--sort <sort>", `result order: ${Sort.options.join(", ")} (default relevance)`)
    .option("--limit <n>", "results per page, 1-100 (default 20)")
    .option("--offset <n>", "results to skip (default 0)")
    .option("--applicability", "include each result's applicability")
    .option("--code-groups", "include each result's code groups")
    .option("--body <file>", "a whole filter body as JSON (file or - for stdin); flags override it")
    .option("--all", "fetch every page (add --limit 100 for fewer requests)")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      examples([
        "coverage search --code CPT:97110 --state CA",
        "coverage search sleep apnea --lob medicare_advantage --applicability",
        "coverage search --code ICD10CM:E11.9 --relationship does-not-cover --json",
      ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [words]) => {
        const base = opts.body ? await readJsonInput(opts.body, "--body") : undefined;
        const flags: SearchFlags = { ...opts, words: words as string[], retiredFlags };
        await runListCommand(ctx, {
          input: buildSearchRequest(flags, base),
          build: (client, body) => client.build.filter(body, (loc) => searchFlagFor(loc, flags)),
          send: (client, request) => client.filter(request),
          all: Boolean(opts.all),
          dryRun: Boolean(opts.dryRun),
          idFields: SEARCH_ID_FIELDS,
          view: async () => {
            const today = await ctx.today();
            return {
              renderTable: async (items) =>
                (await import("../output/policies.js")).renderPolicyTable(items, ctx.io, today),
              moreHint: (next) => `More results: add --offset ${next}, or --all for every page.`,
              emptyMessage: "No policies match.",
              csvColumns: POLICY_CSV_COLUMNS,
            };
          },
        });
      }),
    );
}
