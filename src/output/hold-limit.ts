import { CliError, UsageError } from "../errors.js";

/**
 * How much `--all` may hold in memory for the formats that wait for every page (json: one
 * envelope; table: column widths). ndjson and csv stream, so they have no ceiling.
 */
export interface HoldLimit {
  /** Most items held (COVERAGE_ALL_MAX_ITEMS). */
  items: number;
  /** Most bytes of the items' JSON held (COVERAGE_ALL_MAX_BYTES). */
  bytes: number;
}

/** 100,000 items or 200 MiB of JSON: far above a real catalogue, far below V8's heap limit. */
export const DEFAULT_HOLD_LIMIT: HoldLimit = { items: 100_000, bytes: 200 * 1024 * 1024 };

function readCeiling(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new UsageError(
      `${name}: '${raw}' is not a positive whole number`,
      `Example: ${name}=${fallback}`,
    );
  return n;
}

/** The `--all` ceilings from the environment, else the defaults (a bad value is exit 2). */
export function readHoldLimit(env: NodeJS.ProcessEnv): HoldLimit {
  return {
    items: readCeiling(env, "COVERAGE_ALL_MAX_ITEMS", DEFAULT_HOLD_LIMIT.items),
    bytes: readCeiling(env, "COVERAGE_ALL_MAX_BYTES", DEFAULT_HOLD_LIMIT.bytes),
  };
}

/**
 * A counter of what `--all` holds: `add` each page before keeping it; past a ceiling it throws
 * (exit 1) instead of growing until V8 aborts, pointing at the streaming formats.
 */
export function createHoldCounter(limit: HoldLimit, format: string): (page: unknown[]) => void {
  let items = 0;
  let bytes = 0;
  const stop = (what: string, variable: string) =>
    new CliError(
      `--all stopped: more than ${what} would be held in memory for --format ${format}`,
      `Use --format ndjson (one item per line, streamed with constant memory) or csv, or narrow the request; ${variable} raises the ceiling.`,
    );
  return (page) => {
    items += page.length;
    if (items > limit.items)
      throw stop(`${limit.items.toLocaleString("en-US")} items`, "COVERAGE_ALL_MAX_ITEMS");
    bytes += Buffer.byteLength(JSON.stringify(page));
    if (bytes > limit.bytes)
      throw stop(`${limit.bytes.toLocaleString("en-US")} bytes of JSON`, "COVERAGE_ALL_MAX_BYTES");
  };
}
