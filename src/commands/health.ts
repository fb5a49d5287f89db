import type { Command } from "commander";
import { buildCheckRequest, buildKeyCheckRequest } from "../api/endpoints.js";
import type { RunEnvironment } from "../cli/context.js";
import { CliError, errorFromHealth, InterruptedError } from "../errors.js";
import type { CheckAnswer, HealthReport } from "../output/health-view.js";
import { writeRecord } from "../output/record.js";
import { examples, withContext } from "./shared.js";

/** `coverage health` → `GET /health` and `GET /ready`; exit 0 only when both answer 200. */
export function registerHealth(program: Command, run: RunEnvironment): void {
  program
    .command("health")
    .description(
      "check the service: GET /health and GET /ready, and with a key set, that the API accepts it (GET /v1/payers?limit=1); exit 0 only when all answer 200",
    )
    .option("--dry-run", "print the requests instead of sending them")
    .addHelpText(
      "after",
      examples([
        "coverage health",
        "coverage health --json",
        "coverage --api-url http://127.0.0.1:8787 health",
      ]),
    )
    .action(
      withContext<{ dryRun?: boolean }>(run, async (ctx, opts) => {
        // Like `gh auth status`: with a key, an authenticated request says whether it is valid.
        const keyed = ctx.settings.backend.kind === "http" && Boolean(ctx.settings.apiKey);
        if (opts.dryRun) {
          ctx.printDryRun(buildCheckRequest("health"));
          ctx.printDryRun(buildCheckRequest("ready"));
          if (keyed) ctx.printDryRun(buildKeyCheckRequest());
          return;
        }
        const client = await ctx.client();
        const { buildHealthRows, renderHealthTable } = await import("../output/health-view.js");
        // At once, each failure kept: a check that gets no answer leaves the others' rows.
        const [health, ready, key] = await Promise.all([
          answerOf(client.check("health")),
          answerOf(client.check("ready")),
          ...(keyed ? [answerOf(client.checkKey())] : []),
        ]);
        if (!health || !ready) return;
        const report: HealthReport = {
          health: health.answer,
          ready: ready.answer,
          ...(key ? { key: key.answer } : {}),
        };
        await writeRecord(report, {
          format: ctx.settings.format,
          io: ctx.io,
          renderTable: () => renderHealthTable(report, ctx.io),
          rows: buildHealthRows(report),
        });
        const lost = [health, ready, key].find((a) => a?.error)?.error;
        if (lost) throw lost;
        const failure = errorFromHealth(report, Boolean(ctx.settings.apiKey));
        if (failure) throw failure;
      }),
    );
}

/** A check's answer, or (status null) the error that stopped it; Ctrl-C still stops the run. */
async function answerOf(
  check: Promise<CheckAnswer>,
): Promise<{ answer: CheckAnswer; error?: CliError }> {
  try {
    return { answer: await check };
  } catch (error) {
    if (!(error instanceof CliError) || error instanceof InterruptedError) throw error;
    return { answer: { status: null, body: null, error: error.message }, error };
  }
}
