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

/**
 * Data counts its days back from its own day (its `as_of`, or `--today`), not the calendar
 * (newcomer-2, step 3): said on stderr when that day is not this machine's date. Over HTTP the
 * day is the API's, as its answer said it, so local data and `serve` over it say the same.
 */
export async function sayDayCountedFrom(ctx: CommandContext): Promise<void> {
  const day = await ctx.today();
  if (day !== new Date().toISOString().slice(0, 10))
    ctx.inform(
      `The days are counted back from ${day} (the data's day, its as_of unless a day is set), not from today's date.`,
    );
}
