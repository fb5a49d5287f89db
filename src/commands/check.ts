import type { Command } from "commander";
import type { CommandContext, RunEnvironment } from "../cli/context.js";
import { LOB_CATEGORIES } from "../contract/index.js";
import type { CheckFlags } from "../requests/claim-input.js";
import { stateExpansionNotice } from "../requests/parse-flags.js";
import { CHECK_EXAMPLES, CHECK_HELP, CHECK_VERDICTS } from "../views/claim-verdicts.js";
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
  const defaults = input.readDefaults(flags, flags.date ?? (await ctx.today()));
  // --state widened as every command with a state says it (the lines' own states are not).
  const widened = stateExpansionNotice({
    state: flags.state === undefined ? undefined : [flags.state],
    exactState: flags.exactState,
  });
  if (widened) ctx.inform(widened);
  const source = input.sourceName(flags);
  const warn = ctx.warn;
  const knownPayers = async () => listCatalogueIds(await ctx.client(), "payer", warn);
  const opened = await input.openClaimLines(flags, stdin, { defaults, knownPayers, warn });
  const rules = await (await import("./code-medicare.js")).openCheckRules(ctx);
  try {
    if (flags.dryRun) return await questions.printQuestions(opened.lines, ctx, source);
    const { ClaimAnswers, answerClaims } = await import("../views/claim-answers.js");
    const { applyClaimRules } = await import("../views/claim-rules.js");
    const { createCheckWriter, CheckSummary } = await import("../output/check-output.js");
    const answers = new ClaimAnswers(await ctx.client(), warn, knownPayers);
    const writer = createCheckWriter(ctx.settings.format, ctx.io);
    const summary = new CheckSummary(ctx.io, CHECK_VERDICTS, input.MAX_NAMED_PROBLEMS);
    for await (const claim of answerClaims(questions.groupClaims(opened.lines), answers)) {
      if ("problem" in claim && flags.input === undefined) input.flagError(claim.problem);
      else if ("problem" in claim) summary.skip(input.describeProblem(claim, source));
      else for (const l of applyClaimRules(claim, rules.list)) await writer.write(summary.add(l));
    }
    await writer.end();
    summary.report(ctx.settings.quiet, ctx.settings.verbose ? answers.stats : undefined);
    const failure = summary.failure(failOn);
    if (failure) throw failure;
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
