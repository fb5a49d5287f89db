import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { CODE_CSV_COLUMNS } from "../output/columns.js";
import { parseOneCode, type CodeViewFlags } from "../requests/views.js";
import { examples, withContext } from "./shared.js";
import { addCodeViewOptions, fetchCodeView } from "./view-command.js";

type Opts = CodeViewFlags & { dryRun?: boolean };

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
        const found = await fetchCodeView(ctx, ref, opts);
        if (!found) return;
        const { buildCodeReport, flattenCodeReport } = await import("../views/code-view.js");
        const today = await ctx.today();
        const report = buildCodeReport(found.items, ref, today, found.day, found.states);
        const { writeView } = await import("../output/view-output.js");
        await writeView(report, {
          format: ctx.settings.format,
          io: ctx.io,
          command: "code",
          rows: flattenCodeReport(report),
          csvColumns: CODE_CSV_COLUMNS,
          emptyMessage: "No policy lists this code.",
          renderTable: async () =>
            (await import("../output/code-report-view.js")).renderCodeReport(report, ctx.io, today),
        });
      }),
    );
}
