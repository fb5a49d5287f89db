import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { POLICY_COLUMNS, POLICY_FIELDS } from "../output/columns.js";
import * as view from "../output/search-view.js";
import {
  buildSearchRequest,
  SEARCH_ID_FIELDS,
  searchFlagFor,
  type SearchFlags,
} from "../requests/search.js";
import { runListCommand } from "./list-command.js";
import { addSearchOptions } from "./search-options.js";
import { examples, fieldsOption, readJsonInput, withContext } from "./shared.js";

type Opts = Omit<SearchFlags, "words"> & { body?: string; dryRun?: boolean; fields?: string[] };

/** `coverage search [words...]` → `POST /v1/policies/filter`. */
export function registerSearch(program: Command, run: RunEnvironment): void {
  const retiredFlags: string[] = [];
  addSearchOptions(
    program
      .command("search")
      .description("find policies by text, code, payer, line of business, state and date")
      .argument(
        "[words...]",
        "full-text words (same as --query): they rank the results, they never filter them",
      ),
    retiredFlags,
  )
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
        const base = opts.body ? await readJsonInput(opts.body, "--body", run.stdin) : undefined;
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
