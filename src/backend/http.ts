import type { Transport } from "./transport.js";
import { UsageError } from "../errors.js";

export interface HttpTransportOptions {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  /** One line per request with --verbose (key and signatures masked). */
  verbose?: ((line: string) => void) | undefined;
  /** User-facing notices, e.g. "waiting 5 s before retrying". */
  notify: (line: string) => void;
  signal: AbortSignal;
}

/** The HTTP API over undici (placeholder until the HTTP backend lands). */
export function createHttpTransport(_options: HttpTransportOptions): Transport {
  throw new UsageError("the HTTP backend is not available yet", "Use --local.");
}
