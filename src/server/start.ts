import { compileSchemas } from "../contract/validation.js";
import { bundledDatasetPath } from "../dataset/load.js";
import { resolveToday } from "../engine/time.js";
import { isLoopbackHost } from "../backend/loopback.js";
import { createServeHandler } from "./app.js";
import { listen, type RunningServer } from "./listen.js";
import { openLiveDataset } from "./live-dataset.js";

export interface StartOptions {
  /** Dataset file; default the bundled sample. */
  data: string | undefined;
  /** Pinned "today" (--today / COVERAGE_TODAY); else the dataset's `as_of`, else the real date. */
  today: string | undefined;
  apiKey: string | undefined;
  sandbox: boolean;
  host: string;
  port: number;
  /** Access log and warnings (stderr). */
  log: (line: string) => void;
  warn: (line: string) => void;
}

/** Loads (or, a snapshot, opens) the dataset and serves it as the API; resolves once listening. */
export async function startCoverageServer(options: StartOptions): Promise<RunningServer> {
  // Every request parses the same schemas: compiled on first use, they are faster from then on
  // (the CLI's one-shot commands turn this off).
  compileSchemas(true);
  // A snapshot is opened, not loaded: ready at once whatever its size. Opened again when
  // another process changes the file (a pull into it, a rebuild over it).
  const live = await openLiveDataset(options.data ?? bundledDatasetPath());
  const wildcard = options.host === "0.0.0.0" || options.host === "::";
  let url = "";
  const handler = createServeHandler({
    dataset: live.dataset,
    current: () => live.current(),
    today: () => resolveToday(options.today, undefined, live.dataset.db.asOf, new Date()),
    apiKey: options.apiKey,
    sandbox: options.sandbox,
    baseUrl: () => url,
    linksFromHostHeader: wildcard,
    log: options.log,
  });
  const server = await listen(handler, options.host, options.port);
  url = server.url;
  if (!options.apiKey && !isLoopbackHost(options.host.replace(/^\[|\]$/g, "")))
    options.warn(
      `serving on ${options.host} without --api-key: anyone who can reach this port can query it`,
    );
  return server;
}
