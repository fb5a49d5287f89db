import { ExitCode } from "../errors.js";

const ENVIRONMENT: Array<[string, string]> = [
  ["COVERAGE_API_URL, COVERAGE_SANDBOX_URL", "API base URLs"],
  ["COVERAGE_API_KEY", "the API key (or `config set api-key`)"],
  ["COVERAGE_PROFILE", "config profile (default 'default')"],
  ["COVERAGE_DATA, COVERAGE_TODAY", "the local engine's dataset and today"],
  ["COVERAGE_FORMAT, COVERAGE_TIMEOUT", "defaults for --format and --timeout"],
  ["COVERAGE_CONFIG_DIR", "where config.json lives"],
  ["COVERAGE_SERVE_KEY", "the key `coverage serve` requires"],
  ["HTTPS_PROXY, HTTP_PROXY, NO_PROXY", "proxies for the HTTP backend"],
  ["NO_COLOR, FORCE_COLOR", "colour"],
];

const EXIT_CODES: Array<[number, string]> = [
  [ExitCode.ok, "success"],
  [ExitCode.failure, "unexpected failure (network, server 5xx, malformed response)"],
  [ExitCode.usage, "usage or validation error (bad flag or value, 422, bad dataset)"],
  [ExitCode.auth, "authentication: missing key (403) or refused key (401)"],
  [ExitCode.notFound, "not found (unknown policy id, no stored file)"],
  [ExitCode.rateLimited, "rate limited after the retries were spent"],
  [ExitCode.interrupted, "interrupted (Ctrl-C)"],
  [143, "`download` stopped by SIGTERM (129: SIGHUP)"],
];

/** The end of `coverage --help`: examples, the environment variables and the exit codes. */
export function describeRootHelp(): string {
  const width = Math.max(...ENVIRONMENT.map(([name]) => name.length));
  return [
    "",
    "Examples:",
    "  $ coverage search --code CPT:97110 --state CA",
    "  $ coverage search sleep apnea --lob medicare_advantage",
    "  $ coverage policy cms-ncd/240.4/2008-03-13",
    "  $ coverage updates --days 30",
    "  $ coverage --api-url https://api.example.com health",
    "",
    "Environment:",
    ...ENVIRONMENT.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`),
    "",
    "Exit codes:",
    ...EXIT_CODES.map(([code, text]) => `  ${String(code).padEnd(3)}  ${text}`),
    "",
  ].join("\n");
}
