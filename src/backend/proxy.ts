import { isLoopbackHost } from "./loopback.js";

export interface ProxyOptions {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * The proxies for requests to `hostname`, from HTTP_PROXY, HTTPS_PROXY and NO_PROXY. A loopback
 * host (a local `coverage serve`) is always reached directly: a proxy elsewhere cannot reach it,
 * and the API key would cross the network in plain http.
 */
export function proxyOptionsFor(hostname: string, env: NodeJS.ProcessEnv): ProxyOptions {
  if (isLoopbackHost(hostname)) return { httpProxy: "", httpsProxy: "", noProxy: "" };
  // Empty strings (not undefined) so undici does not fall back to process.env behind our back;
  // lower case first, as curl and undici read them.
  const pick = (...names: string[]) => names.map((n) => env[n]).find((v) => v) ?? "";
  return {
    httpProxy: pick("http_proxy", "HTTP_PROXY"),
    httpsProxy: pick("https_proxy", "HTTPS_PROXY"),
    noProxy: pick("no_proxy", "NO_PROXY"),
  };
}

/**
 * The proxy a request to `url` goes through, or undefined: `NO_PROXY` read as undici reads it
 * (`*`, host names with or without a leading dot, matching the host and its subdomains, an
 * optional `:port`). Only for messages: undici makes the decision itself.
 */
export function proxyFor(url: URL, options: ProxyOptions): string | undefined {
  const proxy = url.protocol === "https:" ? options.httpsProxy : options.httpProxy;
  if (!proxy) return undefined;
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const raw of options.noProxy.toLowerCase().split(/[,\s]+/)) {
    if (!raw) continue;
    if (raw === "*") return undefined;
    const [name = "", entryPort] = raw.replace(/^\*?\./, "").split(":");
    if (entryPort && entryPort !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  return proxy;
}
