import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { CODE_CSV_COLUMNS } from "../output/columns.js";
import { parseOneCode, type CodeViewFlags } from "../requests/views.js";
import type { DossierFlags } from "./code-medicare.js";
import { examples, withContext } from "./shared.js";
import { addCodeViewOptions, fetchCodeView } from "./view-command.js";

type Opts = CodeViewFlags & DossierFlags & { dryRun?: boolean };

/** `coverage code SYSTEM:CODE`: what a code is and which policies cover, exclude or mention it. */
export function registerCode(program: Command, run: RunEnvironment): void {
  addCodeViewOptions(
    program
      .command("code")
      .description(
        "what a code is, the policies that cover, exclude or mention it, and Medicare's edits and fees",
      )
      .argument("<system:code>", "one code, e.g. CPT:97110 or HCPCS:E0601"),
  )
    .option("--date <date>", "the date of service (same as --effective-on)")
    .option(
      "--edits",
      "list each PTP edit in force (partner, modifier indicator, dates, rationale)",
    )
    .option(
      "--locality <nn>",
      "the PFS amounts in this Medicare locality too (with --state, or as TX-18)",
    )
    .addHelpText(
      "after",
      "\nHow: POST /v1/policies/filter for the code on the day (include_applicability and\n" +
        "include_code_groups), every page of 100 (at most 2000 policies). The description comes\n" +
        "from the code groups of those policies. On a snapshot with Medicare's rules (`data import\n" +
        "edits|fees|pa`): the MUE per setting, PTP edits, PFS indicators and amounts, the DMEPOS\n" +
        "fee for the state and prior authorization, each with its release (docs/medicare-edits.md):\n" +
        "coverage --data medicare code CPT:64483 --state TX --edits --locality 18\n" +
        examples([
          "coverage code CPT:97110",
          "coverage code HCPCS:E0601 --state CA",
          "coverage code CPT:97110 --state CA --date 2026-06-15",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [arg]) => {
        const ref = parseOneCode(arg as string);
        if (opts.date !== undefined) opts.effectiveOn ??= opts.date;
        const found = await fetchCodeView(ctx, ref, opts);
        if (!found) return;
        const [{ buildCodeReport, flattenCodeReport }, { loadCodeDossier }] = await Promise.all([
          import("../views/code-view.js"),
          import("./code-medicare.js"),
        ]);
        const today = await ctx.today();
        const medicare = await loadCodeDossier(ctx, ref, opts, found.day);
        const report = {
          ...buildCodeReport(found.items, ref, today, found.day),
          ...(medicare && { medicare }),
        };
        const { writeView } = await import("../output/view-output.js");
        await writeView(report, {
          format: ctx.settings.format,
          io: ctx.io,
          command: "code",
          rows: flattenCodeReport(report),
          csvColumns: CODE_CSV_COLUMNS,
          emptyMessage: medicare ? undefined : "No policy lists this code.",
          renderTable: async () => {
            const text = (await import("../output/code-report-view.js")).renderCodeReport(
              report,
              ctx.io,
              today,
            );
            if (!medicare) return text;
            return `${text}\n\n${(await import("../output/code-dossier-view.js")).renderCodeDossier(medicare, ctx.io)}`;
          },
        });
      }),
    );
}
