import { z } from "zod";
import { isRealDate } from "../contract/index.js";
import type { Profile } from "../config/keys.js";
import { UsageError } from "../errors.js";

export const OutputFormat = z.enum(["table", "json", "ndjson", "csv"]);
export type OutputFormat = z.infer<typeof OutputFormat>;

/** The global options as commander parses them. */
export interface GlobalFlags {
  apiUrl?: string;
  sandbox?: boolean;
  local?: boolean;
  data?: string;
  today?: string;
  profile?: string;
  json?: boolean;
  format?: string;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  timeout?: string;
}

export type BackendChoice =
  | { kind: "local"; data: string | undefined; defaulted: boolean }
  | { kind: "http"; baseUrl: string; sandbox: boolean };

export interface Settings {
  backend: BackendChoice;
  apiKey: string | undefined;
  profile: string;
  format: OutputFormat;
  timeoutMs: number;
  today: string | undefined;
  quiet: boolean;
  verbose: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** The active profile's name: flag, then COVERAGE_PROFILE, then `default`. */
export function resolveProfileName(flags: GlobalFlags, env: NodeJS.ProcessEnv): string {
  return flags.profile || env.COVERAGE_PROFILE || "default";
}

function pick<T>(...values: Array<T | undefined | null | "">): T | undefined {
  for (const v of values) if (v !== undefined && v !== null && v !== "") return v as T;
  return undefined;
}

/** Node's timers hold at most 2^31 - 1 ms (~24.8 days); a longer one would fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** A timeout in ms from a flag, variable or profile value; `example` shows the fix. */
export function parseTimeoutMs(raw: string | number, example: string): number {
  const n = typeof raw === "number" ? raw : /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(
      `timeout: '${raw}' is not a positive whole number of milliseconds`,
      `Example: ${example}`,
    );
  if (n > MAX_TIMEOUT_MS)
    throw new UsageError(
      `timeout: '${raw}' is more than the longest timeout, ${MAX_TIMEOUT_MS} ms (~24 days)`,
      `Example: ${example}`,
    );
  return n;
}

function parseTimeout(raw: string | number | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  return parseTimeoutMs(raw, "--timeout 10000");
}

/** Resolves every setting with the precedence flag > environment > profile > default. */
export function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  profile: Profile,
): Settings {
  if (flags.local && (flags.apiUrl || flags.sandbox))
    throw new UsageError(
      "--local cannot be combined with --api-url or --sandbox",
      "Pick one backend.",
    );

  let backend: BackendChoice;
  if (flags.local)
    backend = { kind: "local", data: pick(flags.data, env.COVERAGE_DATA), defaulted: false };
  else if (flags.sandbox) {
    const url = pick(env.COVERAGE_SANDBOX_URL, profile["sandbox-url"]);
    if (!url)
      throw new UsageError(
        "--sandbox needs a sandbox URL",
        "Set COVERAGE_SANDBOX_URL or `coverage config set sandbox-url URL`.",
      );
    backend = { kind: "http", baseUrl: url, sandbox: true };
  } else {
    const url = pick(flags.apiUrl, env.COVERAGE_API_URL, profile["api-url"]);
    backend = url
      ? { kind: "http", baseUrl: url, sandbox: false }
      : { kind: "local", data: pick(flags.data, env.COVERAGE_DATA), defaulted: true };
  }

  if (flags.json && flags.format !== undefined && flags.format.toLowerCase() !== "json")
    throw new UsageError(
      `--json and --format ${flags.format} ask for two formats`,
      "Keep one: --json is short for --format json.",
    );
  const format = flags.json
    ? "json"
    : (pick(flags.format, env.COVERAGE_FORMAT, profile.format) ?? "table");
  const parsedFormat = OutputFormat.safeParse(format);
  if (!parsedFormat.success)
    throw new UsageError(
      `format: '${format}' is not one of table, json, ndjson, csv`,
      "Example: --format csv",
    );

  const today = pick(flags.today, env.COVERAGE_TODAY);
  if (today !== undefined && !isRealDate(today))
    throw new UsageError(
      `today: '${today}' is not a real date in the form YYYY-MM-DD`,
      "Example: --today 2026-01-31",
    );

  return {
    backend,
    apiKey: pick(env.COVERAGE_API_KEY, profile["api-key"]),
    profile: resolveProfileName(flags, env),
    format: parsedFormat.data,
    timeoutMs: parseTimeout(
      pick<string | number>(flags.timeout, env.COVERAGE_TIMEOUT, profile.timeout),
    ),
    today,
    quiet: Boolean(flags.quiet),
    verbose: Boolean(flags.verbose),
  };
}
