import { Option, type Command } from "commander";
import type { CommandContext, RunEnvironment } from "../cli/context.js";
import type { CheckFlags } from "../requests/claim-input.js";
import {
  CHECK_EXAMPLES,
  CHECK_HELP,
  CHECK_OPTIONS,
  CHECK_VERDICTS,
  EDIT_SETTINGS,
} from "../views/claim-verdicts.js";
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
  const scope = input.editScopeOf(flags);
  const date = flags.date ?? (await defaultDay(ctx, flags.dryRun === true));
  const defaults = input.readDefaults(flags, date, ctx.inform);
  const [{ quiet, verbose }, warn] = [ctx.settings, ctx.warn];
  const knownPayers = async () => listCatalogueIds(await ctx.client(), "payer", warn);
  const opened = await input.openClaimLines(flags, stdin, { defaults, knownPayers, warn });
  const rules = await (await import("./check-rules.js")).openCheckRules(ctx, scope);
  try {
    if (flags.dryRun) return await questions.printQuestions(opened.lines, ctx, flags);
    const { ClaimAnswers, answerClaims } = await import("../views/claim-answers.js");
    const { checkClaims } = await import("../views/claim-rules.js");
    const { CheckSummary } = await import("../output/check-output.js");
    const answers = new ClaimAnswers(await ctx.client(), warn, knownPayers);
    const summary = new CheckSummary(ctx.io, CHECK_VERDICTS, input.MAX_NAMED_PROBLEMS);
    const skip = input.onSkipped(flags, (described) => summary.skip(described));
    const answered = answerClaims(questions.groupClaims(opened.lines), answers);
    const checked = checkClaims(answered, skip, rules.list);
    await (await import("./check-write.js")).writeCheckRun(ctx, flags, stdin, checked, summary);
    summary.report(quiet, verbose ? answers.stats : undefined, opened.tally);
    summary.failIfFound(failOn);
  } finally {
    rules.close();
    await opened.close();
  }
}

/** `coverage check`: will this claim line meet the coverage policies that apply? */
export function registerCheck(program: Command, run: RunEnvironment): void {
  const command = program
    .command("check")
    .description(
      "check claim lines (procedure, diagnoses, state, LOB, payer, date) against the policies that apply",
    );
  for (const o of CHECK_OPTIONS)
    if (o.flags.startsWith("--setting"))
      command.addOption(new Option(o.flags, o.description).choices(EDIT_SETTINGS));
    else if (o.repeatable) command.option(o.flags, o.description, collect);
    else command.option(o.flags, o.description);
  command
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
