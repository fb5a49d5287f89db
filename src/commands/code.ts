import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { LobCategory } from "../contract/index.js";
import {
  buildCodeViewBody,
  codeViewFlagFor,
  parseOneCode,
  type CodeViewFlags,
} from "../requests/views.js";
import { collect, examples, withContext } from "./shared.js";

type Opts = CodeViewFlags & { dryRun?: boolean };

/** Adds the narrowing options shared by `code` and `matrix`. */
export function addCodeViewOptions(command: Command): Command {
  return command
    .option(
      "--state <codes>",
      "only scopes in these states (nationwide included; repeatable)",
      collect,
    )
    .option("--lob <categories>", `LOB categories: ${LobCategory.options.join(", ")}`, collect)
    .option("--payer <ids>", "payer ids (repeatable, comma-separated)", collect)
    .option("--effective-on <date>", "the day to look at (default: today)")
    .option("--dry-run", "print the first request instead of sending it");
}

/** `coverage code SYSTEM:CODE`: what a code is and which policies cover, exclude or mention it. */
export function registerCode(program: Command, run: RunEnvironment): void {
  addCodeViewOptions(
    program
      .command("code")
      .description("what a code is, and the policies that cover, exclude or mention it")
      .argument("<system:code>", "one code, e.g. CPT:97110 or HCPCS:E0601"),
  )
    .addHelpText(
      "after",
      "\nHow: POST /v1/policies/filter for the code on the day (include_applicability and\n" +
        "include_code_groups), every page of 100 (at most 2000 policies). The description comes\n" +
        "from the code groups of those policies.\n" +
        examples([
          "coverage code CPT:97110",
          "coverage code HCPCS:E0601 --state CA",
          "coverage code CPT:97110 --lob commercial --format csv",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [arg]) => {
        const ref = parseOneCode(arg as string);
        const day = opts.effectiveOn ?? (await ctx.today());
        const body = buildCodeViewBody(ref, opts, day);
        const first = ctx.offlineClient().build.filter({ ...body, offset: 0 }, codeViewFlagFor);
        if (opts.dryRun) return ctx.printDryRun(first);
        const [{ fetchAllPolicies }, { buildCodeReport, flattenCodeReport }] = await Promise.all([
          import("../views/fetch.js"),
          import("../views/code-view.js"),
        ]);
        const items = await fetchAllPolicies(await ctx.client(), body, codeViewFlagFor);
        const report = buildCodeReport(items, ref, await ctx.today(), day);
        const { writeView } = await import("../output/view-output.js");
        await writeView(report, {
          format: ctx.settings.format,
          io: ctx.io,
          command: "code",
          rows: flattenCodeReport(report),
          csvColumns: CODE_CSV_COLUMNS,
          renderTable: async () =>
            (await import("../output/code-report-view.js")).renderCodeReport(report, ctx.io),
        });
      }),
    );
}

const CODE_CSV_COLUMNS = [
  "relationship",
  "policy_id",
  "policy_number",
  "title",
  "payer_ids",
  "payer_names",
  "scope",
  "categories",
  "effective_from_date",
  "effective_to_date",
  "state",
];
