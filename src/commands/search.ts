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
import { levelOneHintForBody } from "../requests/code-formats.js";
import { stateExpansionNotice } from "../requests/parse-flags.js";
import { SUB_STATE_HELP } from "../requests/sub-states.js";
import { runListCommand } from "./list-command.js";
import { addSearchOptions } from "./search-options.js";
import { examples, fieldsOption, readJsonInput, withContext } from "./shared.js";

type Opts = Omit<SearchFlags, "words"> & { body?: string; dryRun?: boolean; fields?: string[] };

// rules.md Filter 3: which of a version's links --payer, --lob, --lob-id and --state look at.
const PAST_LINKS_HELP =
  "\nPast versions and --payer, --lob, --lob-id, --state: these match a version's current links\n" +
  "(not ended today), so a version whose links have all ended is not found by them. Past links\n" +
  "count only with --retired (every link the version ever had) or a date window\n" +
  "(--effective-on, --effective-start/--effective-end: the links in effect then).\n";

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
      SUB_STATE_HELP +
        PAST_LINKS_HELP +
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
        const widened = stateExpansionNotice(flags);
        if (widened) ctx.inform(widened);
        const shape = view.readSearchShape(input);
        await runListCommand(ctx, {
          input,
          build: (client, body) => client.build.filter(body, (loc) => searchFlagFor(loc, flags)),
          send: (client, request) =>
            client.filter(request).then((page) => {
              // A CPT-shaped HCPCS: code that found nothing is most likely listed as CPT.
              const levelOne =
                page.data.length || page.offset ? undefined : levelOneHintForBody(input);
              if (levelOne) ctx.warn(levelOne);
              return view.warnUnmatchedWords(input, page, ctx.warn);
            }),
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
