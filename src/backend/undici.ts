// The part of undici the CLI uses, loaded from its own files instead of its index. The index
// also loads fetch, WebSocket, the caches and the mocks, and through them Node's built-in copy
// of undici: ~90 ms of every HTTP command's start for code we never call (README, "The HTTP
// client" under Performance).
// These paths are bundled at build time (tsup.config.ts), so a future undici that moves them
// fails `npm run build`, not a user's command; the version is pinned by the lockfile.
import v8 from "node:v8";
import type { Dispatcher, EnvHttpProxyAgent as EnvHttpProxyAgentType } from "undici";
import apiMethods from "undici/lib/api/index.js";
import DispatcherBase from "undici/lib/dispatcher/dispatcher.js";
import EnvHttpProxyAgent from "undici/lib/dispatcher/env-http-proxy-agent.js";
import redirect from "undici/lib/interceptor/redirect.js";

// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice: a quick
// baseline at the first connection, then optimised code on background threads that the process
// waits for at exit (~100 ms after the last byte on this machine). The parser only delimits
// bodies, so the baseline code is as fast for us (bench/: same throughput); skip the second.
v8.setFlagsFromString("--liftoff-only");

// What undici's index does once: the request/stream/pipeline methods live in lib/api.
Object.assign(DispatcherBase.prototype, apiMethods);

export { EnvHttpProxyAgent, redirect };
export type { Dispatcher, EnvHttpProxyAgentType };

/** Options of `request`: undici's own, with the URL given whole as with its top-level `request`. */
export type RequestOptions = Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> & {
  dispatcher: Dispatcher;
  method?: Dispatcher.HttpMethod;
};

/**
 * Sends one request through `dispatcher`: undici's top-level `request`, without its index. The
 * promise also rejects as soon as `signal` aborts: undici settles a request that is still waiting
 * for a connection (through a proxy that never answers) only once it gets one.
 */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = new URL(url);
  const sent = dispatcher.request({
    ...rest,
    origin: parsed.origin,
    path: `${parsed.pathname}${parsed.search}`,
    method: options.method ?? "GET",
  });
  const signal = options.signal as AbortSignal | undefined;
  if (!signal) return sent;
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([sent, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
