import { UsageError } from "../errors.js";
import { redactUrl } from "./http-redact.js";
import { isLoopbackHost } from "./loopback.js";

/** The base URL checked: http(s) only, and the key never over plain http beyond loopback. */
export function checkBaseUrl(baseUrl: string, apiKey: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(
      `api-url: '${redactUrl(baseUrl, [apiKey])}' is not a valid URL`,
      "Example: --api-url https://api.example.com",
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UsageError(
      `api-url: '${redactUrl(baseUrl, [apiKey])}' must start with https:// (or http:// for a loopback host)`,
      "Example: --api-url https://api.example.com",
    );
  if (url.search || url.hash || url.username || url.password)
    throw new UsageError(
      `api-url: '${redactUrl(baseUrl, [apiKey])}' must be a base URL, without ${url.username || url.password ? "a user name or password" : "a query (?...) or fragment (#...)"}`,
      "Example: --api-url https://api.example.com (the key goes in COVERAGE_API_KEY or `coverage config set api-key`).",
    );
  if (apiKey && url.protocol === "http:" && !isLoopbackHost(url.hostname))
    throw new UsageError(
      `refusing to send the API key over plain http to ${url.host}`,
      "Use an https:// URL; plain http is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost).",
    );
  return url;
}
