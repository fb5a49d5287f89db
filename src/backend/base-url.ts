import { UsageError } from "../errors.js";
import { redactUrl } from "./http-redact.js";
import { isLoopbackHost } from "./loopback.js";

/** Where a base URL was given, for the messages: its name and how to set it. */
interface UrlSource {
  name: string;
  /** A command that sets it right, e.g. `--api-url https://api.example.com`. */
  set: string;
}

const FLAG: UrlSource = { name: "api-url", set: "--api-url https://api.example.com" };

/** The base URL checked: http(s) only, and the key never over plain http beyond loopback. */
export function checkBaseUrl(baseUrl: string, apiKey: string | undefined, from = FLAG): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(
      `${from.name}: '${redactUrl(baseUrl, [apiKey])}' is not a valid URL`,
      `Example: ${from.set}`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UsageError(
      `${from.name}: '${redactUrl(baseUrl, [apiKey])}' must start with https:// (or http:// for a loopback host)`,
      `Example: ${from.set}`,
    );
  if (url.search || url.hash || url.username || url.password)
    throw new UsageError(
      `${from.name}: '${redactUrl(baseUrl, [apiKey])}' must be a base URL, without ${url.username || url.password ? "a user name or password" : "a query (?...) or fragment (#...)"}`,
      `Example: ${from.set} (the key goes in COVERAGE_API_KEY or \`coverage config set api-key\`).`,
    );
  if (apiKey && url.protocol === "http:" && !isLoopbackHost(url.hostname))
    throw new UsageError(
      `refusing to send the API key over plain http to ${url.host}`,
      "Use an https:// URL; plain http is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost).",
    );
  return url;
}
