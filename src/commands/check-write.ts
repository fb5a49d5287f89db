import type { CommandContext } from "../cli/context.js";
import type { CheckSummary } from "../output/check-output.js";
import type { CheckFlags } from "../requests/claim-input.js";
import type { CheckedClaim } from "../views/claim-rules.js";

/**
 * The last stage of `check`: the checked lines written as they come. A check of a file or of
 * the process's own stdin runs under runTerminable (SIGTERM and SIGHUP stop it before the next
 * line, as Ctrl-C does); a line from flags ends at once, and `mcp` runs checks (on a stdin of
 * their own) many at a time, where process-wide handlers would pile up.
 */
export async function writeCheckRun(
  ctx: CommandContext,
  flags: CheckFlags,
  stdin: NodeJS.ReadableStream,
  checked: AsyncIterable<CheckedClaim>,
  summary: CheckSummary,
): Promise<void> {
  const { writeChecks } = await import("../output/check-output.js");
  const format = ctx.settings.format;
  const write = (signal: AbortSignal) => writeChecks(checked, ctx.io, summary, signal, format);
  if (flags.input === undefined || (flags.input === "-" && stdin !== process.stdin))
    return write(ctx.signal);
  const { runTerminable } = await import("../download/termination.js");
  await runTerminable(ctx.signal, write, (by) => summary.stopped(by, format));
}
