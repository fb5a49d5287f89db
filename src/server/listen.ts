import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { UnexpectedError, UsageError } from "../errors.js";

/** How long open requests may finish after a shutdown signal. */
const CLOSE_GRACE_MS = 2_000;

/**
 * What one client may hold of the server: a client that stops sending or reading is cut, and
 * connections past the cap are closed as they arrive (each costs a descriptor and buffers).
 */
export interface ServerLimits {
  /** The request's headers must be in within this (slowloris). */
  headersTimeoutMs: number;
  /** The whole request, body included, must be in within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** No byte moving either way for this long: destroyed (a client stopped reading, or sending). */
  idleTimeoutMs: number;
  /** Open connections at most; more are closed at once. */
  maxConnections: number;
  /** How often the header and request deadlines are checked. */
  checkIntervalMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  maxConnections: 1_000,
  checkIntervalMs: 1_000,
};

export interface RunningServer {
  /** Base URL as clients reach it, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Stops accepting, ends idle keep-alive connections, and waits for open requests to finish. */
  close(): Promise<void>;
}

/** `--port`: a whole number 0..65535 (0 = any free port). */
export function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) > 65535)
    throw new UsageError(
      `port: '${raw}' is not a port number (0-65535)`,
      "Example: --port 8787, or --port 0 for any free port.",
    );
  return Number(raw);
}

/** The base URL of an address: IPv6 literals bracketed; wildcard binds shown as loopback. */
export function resolveBaseUrl(address: AddressInfo): string {
  const host =
    address.address === "0.0.0.0"
      ? "127.0.0.1"
      : address.address === "::"
        ? "::1"
        : address.address;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}

/** Listens on host:port; resolves once the socket is bound. */
export function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
  port: number,
  overrides: Partial<ServerLimits> = {},
): Promise<RunningServer> {
  const limits = { ...SERVER_LIMITS, ...overrides };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    handler,
  );
  // No 'timeout' listener: Node destroys the socket when it fires.
  server.setTimeout(limits.idleTimeoutMs);
  server.maxConnections = limits.maxConnections;
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE")
        reject(
          new UnexpectedError(
            `cannot listen on ${host}:${port}: the port is in use`,
            "Pick another with --port N, or --port 0 for any free port.",
          ),
        );
      else
        reject(
          new UnexpectedError(
            `cannot listen on ${host}:${port} (${err.code ?? err.message})`,
            "Check --host (an address of this machine, e.g. 127.0.0.1) and --port.",
          ),
        );
    });
    server.listen(port, host, () => {
      const url = resolveBaseUrl(server.address() as AddressInfo);
      resolve({
        url,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            // Requests still running after a grace period (a slow download) are cut.
            setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
          }),
      });
    });
  });
}

/** Resolves on Ctrl-C (the run's abort signal: exit 130) or SIGTERM (exit 0); `dispose` stops listening. */
export function whenStopped(signal: AbortSignal): { stopped: Promise<void>; dispose: () => void } {
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      process.off("SIGTERM", stop);
      signal.removeEventListener("abort", stop);
      resolve();
    };
  });
  if (signal.aborted) stop();
  else {
    signal.addEventListener("abort", stop, { once: true });
    process.on("SIGTERM", stop);
  }
  return { stopped, dispose: stop };
}
