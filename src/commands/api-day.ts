import type { CommandContext } from "../cli/context.js";

/**
 * The engine's today for a value that defaults to it (`check`'s date of service). Over HTTP the
 * day is the API's, learnt from one `GET /health` (no key needed; `coverage serve` says its day,
 * any server dates its clock), so that a line without a date is checked on the day the API
 * filters by, as locally; nothing is sent when `--today` pins the day or for a dry run.
 */
export async function defaultDay(ctx: CommandContext, dryRun: boolean): Promise<string> {
  const { backend, today } = ctx.settings;
  if (backend.kind === "http" && today === undefined && !dryRun)
    // An API that cannot be reached is reported by the requests that follow.
    await (await ctx.client()).check("health").catch(() => undefined);
  return ctx.today();
}
