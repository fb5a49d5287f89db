import { isRealDate } from "../contract/index.js";
import type { Profile } from "../config/keys.js";
import { UsageError } from "../errors.js";

import { isOutputFormat, OUTPUT_FORMATS, type OutputFormat } from "../output/format.js";

// The formats are output's; settings choose one (importers of settings keep finding them here).
export { isOutputFormat, OUTPUT_FORMATS, type OutputFormat };

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
  bom?: boolean;
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
  /** Whether the format was asked on the command line (`--format`, `--json`), not a default. */
  formatAsked: boolean;
  timeoutMs: number;
  today: string | undefined;
  quiet: boolean;
  verbose: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** The active profile's name: flag, then COVERAGE_PROFILE, then `default`. */
export function resolveProfileName(flags: GlobalFlags, env: NodeJS.ProcessEnv): string {
  return flags.profile || env.COVERAGE_PROFILE || "default";
}

function pick<T>(...values: Array<T | undefined | null | "">): T | undefined {
  for (const v of values) if (v !== undefined && v !== null && v !== "") return v as T;
  return undefined;
}

/** Node's timers hold at most 2^31 - 1 ms (~24.8 days); a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * A timeout in ms from a flag, variable or profile value; `example` shows the fix and `from`
 * names where the value came from.
 */
export function parseTimeoutMs(raw: string | number, example: string, from?: string): number {
  const n = typeof raw === "number" ? raw : /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  const shown = `timeout: '${raw}'${from ? ` (from ${from})` : ""}`;
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(
      `${shown} is not a positive whole number of milliseconds`,
      `Example: ${example}`,
    );
  if (n > MAX_TIMEOUT_MS)
    throw new UsageError(
      `${shown} is more than the longest timeout, ${MAX_TIMEOUT_MS} ms (~24 days)`,
      `Example: ${example}`,
    );
  return n;
}

/** A value and where it came from, so an error can say what to fix. */
interface Sourced<T> {
  value: T;
  /** The flag, the variable, or the profile's key. */
  from: string;
  /** How to give a good value there, e.g. `--timeout 10000`. */
  example: (good: string) => string;
}

/** The first set value of flag > environment > profile (empty strings count as unset). */
function pickSourced<T>(
  flag: [string, T | undefined],
  envVar: [string, T | string | undefined],
  profile?: [string, string, T | undefined],
): Sourced<T> | undefined {
  const [flagName, flagValue] = flag;
  const [envName, envValue] = envVar;
  if (flagValue !== undefined && flagValue !== "")
    return { value: flagValue, from: flagName, example: (g) => `${flagName} ${g}` };
  if (envValue !== undefined && envValue !== "")
    return { value: envValue as T, from: envName, example: (g) => `${envName}=${g}` };
  if (profile && profile[2] !== undefined && profile[2] !== "") {
    const [name, key, value] = profile;
    return {
      value,
      from: `profile '${name}' ${key}`,
      example: (g) => `coverage --profile ${name} config set ${key} ${g}`,
    };
  }
  return undefined;
}

/** An empty flag value is a mistake (an unset shell variable), not "use the default". */
function refuseEmptyFlags(flags: GlobalFlags): void {
  refuseEmpty([
    ["--api-url", flags.apiUrl],
    ["--profile", flags.profile],
    ["--data", flags.data],
    ["--today", flags.today],
    ["--timeout", flags.timeout],
  ]);
}

/**
 * Refuses a flag given an empty value (usually an unset shell variable): falling back silently
 * would answer from other data, or, for `serve --api-key ""`, turn authentication off.
 */
export function refuseEmpty(named: Array<[string, string | undefined]>): void {
  for (const [name, value] of named)
    if (value !== undefined && value.trim() === "")
      throw new UsageError(
        `${name} was given an empty value`,
        `Give ${name} a value, or leave it out to use the environment, the profile or the default.`,
      );
}

/** Resolves every setting with the precedence flag > environment > profile > default. */
export function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  profile: Profile,
): Settings {
  refuseEmptyFlags(flags);
  if (flags.local && (flags.apiUrl || flags.sandbox))
    throw new UsageError(
      "--local cannot be combined with --api-url or --sandbox",
      "Pick one backend.",
    );
  if (flags.sandbox && flags.apiUrl)
    throw new UsageError(
      "--sandbox cannot be combined with --api-url",
      "Pick one backend: --sandbox uses COVERAGE_SANDBOX_URL or the profile's sandbox-url.",
    );
  const profileName = resolveProfileName(flags, env);

  let backend: BackendChoice;
  // A bare name (`medicare`) is resolved to a snapshot of the data folder by createContext.
  const data = pick(flags.data, env.COVERAGE_DATA, profile.data);
  if (flags.local) backend = { kind: "local", data, defaulted: false };
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
      : { kind: "local", data, defaulted: true };
  }

  if (flags.json && flags.format !== undefined && flags.format.toLowerCase() !== "json")
    throw new UsageError(
      `--json and --format ${flags.format} ask for two formats`,
      "Keep one: --json is short for --format json.",
    );
  const formatFrom = flags.json
    ? undefined
    : pickSourced<string>(
        ["--format", flags.format],
        ["COVERAGE_FORMAT", env.COVERAGE_FORMAT],
        [profileName, "format", profile.format],
      );
  const format = flags.json ? "json" : (formatFrom?.value.trim().toLowerCase() ?? "table");
  if (!isOutputFormat(format))
    throw new UsageError(
      `format: '${formatFrom?.value}' (from ${formatFrom?.from}) is not one of ${OUTPUT_FORMATS.join(", ")}`,
      `Example: ${formatFrom?.example("csv")}`,
    );

  const todayFrom = pickSourced<string>(
    ["--today", flags.today],
    ["COVERAGE_TODAY", env.COVERAGE_TODAY],
  );
  const today = todayFrom?.value;
  if (todayFrom && !isRealDate(todayFrom.value))
    throw new UsageError(
      `today: '${todayFrom.value}' (from ${todayFrom.from}) is not a real date in the form YYYY-MM-DD`,
      `Example: ${todayFrom.example("2026-01-31")}`,
    );

  const timeoutFrom = pickSourced<string | number>(
    ["--timeout", flags.timeout],
    ["COVERAGE_TIMEOUT", env.COVERAGE_TIMEOUT],
    [profileName, "timeout", profile.timeout],
  );
  const timeoutMs = timeoutFrom
    ? parseTimeoutMs(timeoutFrom.value, timeoutFrom.example("10000"), timeoutFrom.from)
    : DEFAULT_TIMEOUT_MS;

  return {
    backend,
    apiKey: pick(env.COVERAGE_API_KEY, profile["api-key"]),
    profile: profileName,
    format,
    formatAsked: Boolean(flags.json) || flags.format !== undefined,
    timeoutMs,
    today,
    quiet: Boolean(flags.quiet),
    verbose: Boolean(flags.verbose),
  };
}
