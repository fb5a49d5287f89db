import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { UsageError } from "../errors.js";
import {
  buildCodeViewBody,
  codeViewFlagFor,
  parseOneCode,
  type CodeViewFlags,
} from "../requests/views.js";
import { parseLobs, parseStates, splitList } from "../requests/parse-flags.js";
import { addCodeViewOptions } from "./code.js";
import { examples, withContext } from "./shared.js";

type Opts = CodeViewFlags & { code?: string; dryRun?: boolean };

const CSV_COLUMNS = [
  "payer_id",
  "payer_name",
  "lob",
  "state",
  "verdict",
  "policy_ids",
  "policy_numbers",
];

/** `coverage matrix --code SYSTEM:CODE`: one code across payers x LOBs (rows) and states. */
export function registerMatrix(program: Command, run: RunEnvironment): void {
  addCodeViewOptions(
    program
      .command("matrix")
      .description("one code across payers and lines of business (rows) and states (columns)")
      .option("--code <system:code>", "the code, e.g. CPT:97110 (required)"),
  )
    .addHelpText(
      "after",
      "\nCells: covers, does not cover, mentions, mixed (policies disagree) or - (none), with the\n" +
        "policy numbers behind them. A nationwide scope applies in every state: it counts in each\n" +
        "state's cell and has its own `nationwide` column. Columns are the --state values, else\n" +
        "every state that appears; a matrix wider than the terminal prints in pages of columns.\n" +
        "How: POST /v1/policies/filter as `coverage code` does (every page, at most 2000 policies).\n" +
        examples([
          "coverage matrix --code CPT:97110",
          "coverage matrix --code CPT:97110 --state CA,NY,TX",
          "coverage matrix --code HCPCS:E0601 --lob medicare_part_b --json",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts) => {
        if (!opts.code)
          throw new UsageError(
            "matrix needs --code SYSTEM:CODE",
            "Example: coverage matrix --code CPT:97110",
          );
        const ref = parseOneCode(opts.code, "--code");
        const day = opts.effectiveOn ?? (await ctx.today());
        const body = buildCodeViewBody(ref, opts, day);
        const first = ctx.offlineClient().build.filter({ ...body, offset: 0 }, codeViewFlagFor);
        if (opts.dryRun) return ctx.printDryRun(first);
        const [{ fetchAllPolicies }, { buildMatrix, flattenMatrix }] = await Promise.all([
          import("../views/fetch.js"),
          import("../views/matrix.js"),
        ]);
        const items = await fetchAllPolicies(await ctx.client(), body, codeViewFlagFor);
        const matrix = buildMatrix(
          items,
          ref,
          {
            states: parseStates(opts.state),
            lobs: parseLobs(opts.lob),
            payerIds: splitList(opts.payer),
          },
          day,
        );
        const { writeView } = await import("../output/view-output.js");
        await writeView(matrix, {
          format: ctx.settings.format,
          io: ctx.io,
          command: "matrix",
          rows: flattenMatrix(matrix),
          csvColumns: CSV_COLUMNS,
          renderTable: async () =>
            (await import("../output/matrix-view.js")).renderMatrix(matrix, ctx.io),
        });
      }),
    );
}
