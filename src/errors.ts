import {
  formatDetailLines,
  MessageBody,
  safeParseBounded,
  ValidationErrorBody,
} from "./contract/index.js";
import type { HealthReport } from "./output/health-view.js";

/** Exit codes of `cli.md`. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  checkFailed: 6,
  interrupted: 130,
} as const;

/** Every error the CLI reports: a message, what to do next, and the exit code. */
export class CliError extends Error {
  readonly exitCode: number = ExitCode.failure;
  constructor(
    message: string,
    readonly suggestion?: string,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flag, bad value, bad dataset, or a 422 from the server (exit 2). */
export class UsageError extends CliError {
  override readonly exitCode = ExitCode.usage;
}

/** Missing or invalid API key (exit 3). */
export class AuthError extends CliError {
  override readonly exitCode = ExitCode.auth;
}

/** Unknown policy id or no stored file (exit 4). */
export class NotFoundError extends CliError {
  override readonly exitCode = ExitCode.notFound;
}

/** Still rate limited after the retries (exit 5). */
export class RateLimitError extends CliError {
  override readonly exitCode = ExitCode.rateLimited;
}

/** `coverage check --fail-on`: a row had one of the verdicts named (exit 6). */
export class CheckFailedError extends CliError {
  override readonly exitCode = ExitCode.checkFailed;
}

/** Ctrl-C (exit 130). */
export class InterruptedError extends CliError {
  override readonly exitCode: number = ExitCode.interrupted;
}

/** Stopped by SIGTERM or SIGHUP: the shell's exit code for the signal (128 + its number). */
export class TerminatedError extends InterruptedError {
  override readonly exitCode: number;
  constructor(message: string, signalNumber: number) {
    super(message);
    this.exitCode = 128 + signalNumber;
  }
}

/** Network failures, 5xx after retries, malformed responses (exit 1). */
export class UnexpectedError extends CliError {}

/** Local validation failure: one `loc: msg` line per problem (exit 2). */
export function validationError(lines: string[], suggestion?: string): UsageError {
  return new UsageError("invalid request", suggestion, lines);
}

/** Maps a non-2xx API response to the CLI error (and so exit code) it stands for. */
export function errorFromResponse(
  status: number,
  body: unknown,
  what = "request",
  keySent = true,
): CliError {
  const message = safeParseBounded(MessageBody, body);
  const detail = message.success ? message.data.detail : undefined;
  switch (status) {
    case 401:
      return new AuthError(
        `the API refused the key (401${detail ? `: ${detail}` : ""})`,
        "Set a valid key with `coverage config set api-key` or COVERAGE_API_KEY.",
      );
    case 403:
      if (!keySent)
        return new AuthError(
          `the API needs a key (403${detail ? `: ${detail}` : ""})`,
          "Set one with `coverage config set api-key` (reads stdin) or COVERAGE_API_KEY.",
        );
      // The key was sent, so it did not arrive.
      return new AuthError(
        `the API did not get the key (403${detail ? `: ${detail}` : ""})`,
        "Check the key (`coverage config set api-key`, reads stdin, or COVERAGE_API_KEY); a proxy or gateway on the way may be dropping the x-api-key header.",
      );
    case 404:
      return new NotFoundError(
        detail ?? `${what}: not found (404)`,
        detail === "No file stored for this policy"
          ? "This version has no stored file of that kind: try the other variant (with or without --text), or the source URL that `coverage policy ID` shows."
          : what === "policy" || what === "download link"
            ? "Check the policy id with `coverage search` (ids keep their slashes)."
            : "The API has no such path: check that --api-url is the API's base URL (without /v1).",
      );
    case 422: {
      const v = safeParseBounded(ValidationErrorBody, body);
      if (v.success)
        return new UsageError(
          "the API rejected the request (422)",
          "Fix the fields named above.",
          formatDetailLines(v.data.detail),
        );
      return new UsageError(
        `the API rejected the request (422${detail ? `: ${detail}` : ""})`,
        "The answer did not name the fields; check the flags against `coverage <command> --help`.",
      );
    }
    case 429:
      return new RateLimitError(
        "rate limited by the API (429) after retrying",
        "Wait a minute and try again, or ask for fewer pages.",
      );
    default:
      return new UnexpectedError(
        `${what} failed with HTTP ${status}${detail ? `: ${detail}` : ""}`,
        status >= 500
          ? "The service is having trouble; try again shortly."
          : "Run again with --verbose to see the request, and check --api-url and the flags.",
      );
  }
}

/**
 * The error `coverage health` exits with, or undefined when every check answered 200. A refused
 * or missing key and the rate limit keep their own exit codes (3, 5); anything else is 1.
 */
export function errorFromHealth(report: HealthReport, keySent: boolean): CliError | undefined {
  const answers = [
    { name: "health", ...report.health },
    { name: "ready", ...report.ready },
    ...(report.key ? [{ name: "key", ...report.key }] : []),
  ];
  const failed = answers.filter((a) => a.status !== 200);
  if (!failed.length) return undefined;
  const keyed = failed.find((a) => [401, 403, 429].includes(a.status ?? 0));
  if (keyed?.status) return errorFromResponse(keyed.status, keyed.body, "health", keySent);
  return new UnexpectedError(
    `the service is not healthy: ${failed.map((a) => `/${a.name} answered ${a.status ?? "nothing"}`).join(", ")}`,
    "Try again shortly; if it persists, the service's operators need to know.",
  );
}

/** Maps a file host's non-2xx answer (after `maxRedirects` redirects) to the CLI's error. */
export function errorFromFileResponse(
  status: number,
  shown: string,
  maxRedirects: number,
): CliError {
  if (status === 404 || status === 410)
    return new NotFoundError(
      `the file is not at the download link (${status}): ${shown}`,
      "Run the command again for a fresh link; if it persists, the file is gone from the service.",
    );
  if (status === 401 || status === 403)
    return new UnexpectedError(
      `the download link was refused (${status}); links are short-lived: ${shown}`,
      "Run the command again: every download asks for a fresh link.",
    );
  if (status >= 300 && status < 400)
    return new UnexpectedError(
      `the file host redirected more than ${maxRedirects} times (${status}): ${shown}`,
      "Run the command again for a fresh link; if it persists, the file host is misconfigured.",
    );
  return new UnexpectedError(
    `the download failed with HTTP ${status}: ${shown}`,
    status >= 500 ? "The file host is having trouble; try again shortly." : undefined,
  );
}
