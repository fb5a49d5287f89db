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
export function buildProxyOptions(hostname: string, env: NodeJS.ProcessEnv): ProxyOptions {
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
 * The proxy a request to `url` goes through, or undefined, decided as undici's
 * EnvHttpProxyAgent decides (only for messages; undici makes the decision itself): https falls
 * back to the http proxy; `NO_PROXY` of exactly `*` turns proxies off; other entries are host
 * names (a leading `.` or `*.` ignored) matching the host and its subdomains, with an optional
 * `:port`.
 */
export function resolveProxy(url: URL, options: ProxyOptions): string | undefined {
  const https = url.protocol === "https:";
  const proxy = https ? options.httpsProxy || options.httpProxy : options.httpProxy;
  if (!proxy) return undefined;
  // From `host`, not `hostname`, so an IPv6 address keeps its brackets as in NO_PROXY.
  const host = url.host.replace(/:\d*$/, "").toLowerCase();
  const port = Number.parseInt(url.port, 10) || (https ? 443 : 80);
  const entries = options.noProxy
    .split(/[,\s]/)
    .filter(Boolean)
    .map((entry) => {
      const m = /^(.+):(\d+)$/.exec(entry);
      const name = (m?.[1] ?? entry).replace(/^\*?\./, "").toLowerCase();
      return { name, port: m?.[2] ? Number.parseInt(m[2], 10) : 0 };
    });
  if (entries.length === 0) return proxy;
  if (options.noProxy === "*") return undefined;
  for (const e of entries) {
    if (e.port && e.port !== port) continue;
    if (host === e.name || host.endsWith(`.${e.name}`)) return undefined;
  }
  return proxy;
}
