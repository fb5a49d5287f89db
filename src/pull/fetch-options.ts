import type { CommandContext } from "../cli/context.js";
import { retryBaseFromEnv } from "../backend/http-retry.js";
import type { FetchOptions } from "./fetch.js";
import type { PullLimits } from "./wire-limits.js";

/**
 * The fetch options every file of a pull shares (signal, timeouts, retries, the stall limit and
 * deadline, notices), as a function of the file's label and the flag that fixes its address.
 */
export function pullFetchOptions(
  ctx: CommandContext,
  signal: AbortSignal,
  say: (line: string) => void,
  limits: PullLimits,
): (label: string, fix: string) => FetchOptions {
  return (label, fix) => ({
    signal,
    timeoutMs: ctx.settings.timeoutMs,
    env: ctx.env,
    retryBaseMs: retryBaseFromEnv(ctx.env),
    notify: say,
    verbose: ctx.settings.verbose ? say : undefined,
    label,
    fix,
    limits,
  });
}
