import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { LobCategory, Sort } from "../contract/index.js";
import { POLICY_COLUMNS, POLICY_FIELDS } from "../output/columns.js";
import * as view from "../output/search-view.js";
import {
  buildSearchRequest,
  SEARCH_ID_FIELDS,
  searchFlagFor,
  type SearchFlags,
} from "../requests/search.js";
import { runListCommand } from "./list-command.js";
import { collect, examples, fieldsOption, readJsonInput, withContext } from "./shared.js";

type Opts = Omit<SearchFlags, "words"> & { body?: string; dryRun?: boolean; fields?: string[] };

/** `coverage search [words...]` → `POST /v1/policies/filter`. */
export function registerSearch(program: Command, run: RunEnvironment): void {
  const retiredFlags: string[] = [];
  program
    .command("search")
    .description("find policies by text, code, payer, line of business, state and date")
    .argument(
      "[words...]",
      "full-text words (same as --query): they rank the results, they never filter them",
    )
    .option("--query <text>", "full-text words across titles and summaries: rank, never filter")
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
    .option("--applicability", "include each result's applicability (a table column too)")
    .option("--code-groups", "include each result's code groups (a table column too)")
    .option("--body <file>", "a whole filter body as JSON (file or - for stdin); flags override it")
    .option("--all", "fetch every page (add --limit 100 for fewer requests)")
    .option("--dry-run", "print the request instead of sending it")
    .addOption(fieldsOption(POLICY_COLUMNS))
    .addHelpText(
      "after",
      examples([
        "coverage search --code CPT:97110 --state CA",
        "coverage search sleep apnea --lob medicare_advantage --applicability",
        "coverage search --code ICD10CM:E11.9 --relationship does-not-cover --json",
        "coverage search --code CPT:97110 --fields policy_id,payer_names,states,verdict --format csv",
      ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [words]) => {
        const base = opts.body ? await readJsonInput(opts.body, "--body") : undefined;
        const flags: SearchFlags = { ...opts, words: words as string[], retiredFlags };
        const input = buildSearchRequest(flags, base);
        const shape = view.readSearchShape(input);
        await runListCommand(ctx, {
          input,
          build: (client, body) => client.build.filter(body, (loc) => searchFlagFor(loc, flags)),
          send: (client, request) =>
            client.filter(request).then((page) => view.warnUnmatchedWords(input, page, ctx.warn)),
          all: Boolean(opts.all),
          dryRun: Boolean(opts.dryRun),
          idFields: SEARCH_ID_FIELDS,
          fields: opts.fields,
          fieldNames: { item: POLICY_FIELDS, columns: POLICY_COLUMNS },
          widen: (body, fields) => view.widenSearchBody(body, fields, ctx.settings.format),
          view: async (fields) => view.makeSearchView(shape, await ctx.today(), ctx.io, fields),
        });
      }),
    );
}
