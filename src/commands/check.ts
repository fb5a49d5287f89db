import type { Command } from "commander";
import type { CommandContext, RunEnvironment } from "../cli/context.js";
import { LOB_CATEGORIES } from "../contract/index.js";
import type { CheckFlags } from "../requests/claim-input.js";
import { CHECK_EXAMPLES, CHECK_HELP, CHECK_VERDICTS } from "../views/claim-verdicts.js";
import { defaultDay } from "./api-day.js";
import { collect, examples, listedOption, withContext } from "./shared.js";

/**
 * `coverage check` in one line: read and parse the lines (requests/), group them into claims and
 * distinct questions, ask the client, apply the rules (views/), write (output/).
 */
async function runCheck(ctx: CommandContext, flags: CheckFlags, stdin: NodeJS.ReadableStream) {
  const input = await import("../requests/claim-input.js");
  const questions = await import("../requests/claim-questions.js");
  const { listCatalogueIds } = await import("../backend/catalogue-ids.js");
  const failOn = input.checkFlags(flags);
  const date = flags.date ?? (await defaultDay(ctx, flags.dryRun === true));
  const defaults = input.readDefaults(flags, date, ctx.inform);
  const [{ format, quiet, verbose }, warn] = [ctx.settings, ctx.warn];
  const knownPayers = async () => listCatalogueIds(await ctx.client(), "payer", warn);
  const opened = await input.openClaimLines(flags, stdin, { defaults, knownPayers, warn });
  const rules = await (await import("./code-medicare.js")).openCheckRules(ctx);
  try {
    if (flags.dryRun) return await questions.printQuestions(opened.lines, ctx, flags);
    const { ClaimAnswers, answerClaims } = await import("../views/claim-answers.js");
    const { checkClaims } = await import("../views/claim-rules.js");
    const { CheckSummary, writeChecks } = await import("../output/check-output.js");
    const { runTerminable } = await import("../download/termination.js");
    const answers = new ClaimAnswers(await ctx.client(), warn, knownPayers);
    const summary = new CheckSummary(ctx.io, CHECK_VERDICTS, input.MAX_NAMED_PROBLEMS);
    const skip = input.onSkipped(flags, (described) => summary.skip(described));
    const checked = checkClaims(
      answerClaims(questions.groupClaims(opened.lines), answers),
      skip,
      rules.list,
    );
    const write = (signal: AbortSignal) => writeChecks(checked, ctx.io, summary, signal, format);
    // Process-wide handlers only for a file or the process's stdin: a line from flags ends at
    // once, and `mcp` runs checks (on a stdin of their own) many at a time.
    if (flags.input === undefined || (flags.input === "-" && stdin !== process.stdin))
      await write(ctx.signal);
    else await runTerminable(ctx.signal, write, (by) => summary.stopped(by, format));
    summary.report(quiet, verbose ? answers.stats : undefined, opened.tally);
    summary.failIfFound(failOn);
  } finally {
    rules.close();
    await opened.close();
  }
}

/** `coverage check`: will this claim line meet the coverage policies that apply? */
export function registerCheck(program: Command, run: RunEnvironment): void {
  program
    .command("check")
    .description(
      "check claim lines (procedure, diagnoses, state, LOB, payer, date) against the policies that apply",
    )
    .option("--procedure <code>", "the procedure billed, e.g. CPT:97110 or HCPCS:E0601")
    .option(
      "--diagnosis <codes>",
      "an ICD-10-CM diagnosis of the line (repeatable, comma-separated)",
      collect,
    )
    .option(
      "--state <code>",
      "the patient's state (a split state brings its jurisdictions, a jurisdiction its state)",
    )
    .option(
      "--exact-state",
      "send --state (and a line's state) as given, without sub-state jurisdictions or their state",
    )
    .option("--units <n>", "units of service of the line (default 1)")
    .option(
      "--modifiers <list>",
      "the line's modifiers (repeatable, comma-separated), e.g. 59,RT",
      collect,
    )
    .option("--lob <category>", `the LOB category: ${LOB_CATEGORIES.join(", ")}`)
    .option("--payer <id>", "the payer id (see `coverage payers`)")
    .option("--date <date>", "the date of service, YYYY-MM-DD (default: today)")
    .option("--input <file>", "claim lines from a CSV (with a header) or NDJSON file; - for stdin")
    .option("--strict", "refuse the whole file (exit 2) when a line is bad, before any request")
    .addOption(
      listedOption(
        "--fail-on <verdicts>",
        "exit 6 when a row has one of these verdicts (comma-separated, e.g. procedure-not-covered)",
        CHECK_VERDICTS.map((v) => v.replaceAll(" ", "-")),
      ),
    )
    .option("--dry-run", "print the requests instead of sending them")
    .addHelpText("after", CHECK_HELP + examples(CHECK_EXAMPLES))
    .action(
      withContext<CheckFlags>(run, (ctx, opts) => runCheck(ctx, opts, run.stdin ?? process.stdin)),
    );
}
