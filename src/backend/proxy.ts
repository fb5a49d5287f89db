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
