import { formatBytes } from "../download/progress.js";
import { UsageError } from "../errors.js";

/** No byte for this long and a download is given up (then retried, as a dropped one). */
export const DEFAULT_STALL_SECONDS = 60;
/** A file's deadline: this long, plus one second per DEADLINE_RATE bytes of its size. */
export const DEADLINE_BASE_SECONDS = 300;
/** The slowest rate a pull waits for, in bytes per second (the 75 MB export: ~18 min in all). */
export const DEADLINE_RATE = 100 * 1024;

export const STALL_FLAG = "--stall-timeout SECONDS (or COVERAGE_PULL_STALL_TIMEOUT)";
export const DEADLINE_FLAG = "--deadline SECONDS (or COVERAGE_PULL_DEADLINE)";

/** How long a pull waits for one file: without a byte, and in all. */
export interface PullLimits {
  stallMs: number;
  /** A fixed deadline (--deadline); undefined derives it from the file's size. */
  deadlineMs: number | undefined;
}

function seconds(value: string | undefined, what: string): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(
      `${what} ${value}: not a number of seconds`,
      `Give a positive number, e.g. ${what} 120.`,
    );
  return n;
}

/** The limits from the flags, else the environment, else the defaults (exit 2 on a bad value). */
export function resolvePullLimits(
  flags: { stallTimeout?: string | undefined; deadline?: string | undefined },
  env: NodeJS.ProcessEnv,
): PullLimits {
  const stall =
    seconds(flags.stallTimeout, "--stall-timeout") ??
    seconds(env.COVERAGE_PULL_STALL_TIMEOUT, "COVERAGE_PULL_STALL_TIMEOUT") ??
    DEFAULT_STALL_SECONDS;
  const deadline =
    seconds(flags.deadline, "--deadline") ??
    seconds(env.COVERAGE_PULL_DEADLINE, "COVERAGE_PULL_DEADLINE");
  return {
    stallMs: stall * 1000,
    deadlineMs: deadline === undefined ? undefined : deadline * 1000,
  };
}

/**
 * A file's deadline in ms from its first request: the fixed one, or the base plus its size at
 * the floor rate. A size not announced counts the bytes that came so far (the deadline moves
 * with them: the file must keep coming at the floor rate on average).
 */
export function deadlineMs(limits: PullLimits, size: number | undefined, received: number): number {
  if (limits.deadlineMs !== undefined) return limits.deadlineMs;
  return (DEADLINE_BASE_SECONDS + (size ?? received) / DEADLINE_RATE) * 1000;
}

/** How a deadline was set, for its message. */
export function describeDeadline(limits: PullLimits, size: number | undefined): string {
  if (limits.deadlineMs !== undefined) return "set with --deadline or COVERAGE_PULL_DEADLINE";
  const base = `${DEADLINE_BASE_SECONDS / 60} min plus 1 s per ${DEADLINE_RATE / 1024} KB`;
  return size === undefined
    ? `${base} received, its size not announced`
    : `${base} of its ${formatBytes(size)}`;
}
