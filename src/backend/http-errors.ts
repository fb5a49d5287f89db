import { CliError, UnexpectedError } from "../errors.js";
import { readErrorCode, isConnectionReset } from "./http-retry.js";

/** The reason our per-attempt abort carries when `--timeout` runs out. */
export class AttemptTimeout extends Error {
  constructor() {
    super("timed out");
    this.name = "AttemptTimeout";
  }
}

/** The reason our per-attempt abort carries when the user interrupts. */
export class AttemptInterrupted extends Error {
  constructor() {
    super("interrupted");
    this.name = "AttemptInterrupted";
  }
}

const TIMEOUT_CODES = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT",
]);

const CHECK_URL =
  "Check --api-url (or COVERAGE_API_URL, or the profile's api-url) and that the service is up.";

/** Whether a failure is our own timeout or undici's headers/body/connect timeout. */
export function isTimeout(err: unknown): boolean {
  if (err instanceof AttemptTimeout) return true;
  const code = readErrorCode(err);
  return code !== undefined && TIMEOUT_CODES.has(code);
}

/**
 * A network failure as the CLI error users see: names the request (URL already redacted) and
 * says what to check. Exit 1 for every case (cli.md: network failures are unexpected).
 */
export function networkError(
  err: unknown,
  where: {
    method: string;
    url: string;
    origin: string;
    timeoutMs: number;
    retries: number;
    /** The proxy in the way (credentials masked), when one applies. */
    proxy?: string | undefined;
  },
): CliError {
  const { method, url, origin, timeoutMs, retries, proxy } = where;
  const code = readErrorCode(err);
  const after = retries > 0 ? ` (after ${retries} ${retries === 1 ? "retry" : "retries"})` : "";
  if (proxy) {
    // Through a proxy we only ever connect to the proxy: what failed is the way through it.
    const fix = `Check the proxy (HTTPS_PROXY, HTTP_PROXY), or add the host to NO_PROXY.`;
    if (isTimeout(err))
      return new UnexpectedError(
        `${method} ${url} timed out after ${timeoutMs} ms through the proxy ${proxy}${after}`,
        `Neither the proxy nor the server answered in time. ${fix} A slow service needs a higher --timeout.`,
      );
    if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN")
      return new UnexpectedError(
        `cannot connect to the proxy ${proxy} (${code === "ECONNREFUSED" ? "connection refused" : code}) for ${method} ${url}`,
        fix,
      );
  }
  if (isTimeout(err))
    return new UnexpectedError(
      `${method} ${url} timed out after ${timeoutMs} ms${after}`,
      "The server did not answer in time: raise the limit with --timeout MS (or COVERAGE_TIMEOUT), or try again later.",
    );
  if (code === "ECONNREFUSED")
    return new UnexpectedError(
      `cannot connect to ${origin} (connection refused) for ${method} ${url}`,
      CHECK_URL,
    );
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new UnexpectedError(
      `cannot resolve the host of ${origin} (${code}) for ${method} ${url}`,
      `${CHECK_URL} Behind a proxy, set HTTPS_PROXY.`,
    );
  if (isConnectionReset(err))
    return new UnexpectedError(
      `the connection to ${origin} was closed before an answer to ${method} ${url}${after}`,
      "The service or a proxy dropped the connection; try again shortly.",
    );
  if (
    code &&
    (code.startsWith("CERT_") || code.startsWith("ERR_TLS") || /CERT|SELF_SIGNED/.test(code))
  )
    return new UnexpectedError(
      `TLS failed for ${method} ${url} (${code})`,
      "The server's certificate is not trusted: check the URL, or add your CA with NODE_EXTRA_CA_CERTS.",
    );
  const message = err instanceof Error ? err.message : String(err);
  return new UnexpectedError(
    `${method} ${url} failed: ${message}${code ? ` (${code})` : ""}`,
    `${CHECK_URL} Proxies come from HTTPS_PROXY, HTTP_PROXY and NO_PROXY.`,
  );
}
