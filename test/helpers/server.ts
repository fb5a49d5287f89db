import { once } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { BIN, ROOT, cleanEnv } from "./cli.js";

export const HTTP_DATA = path.join(ROOT, "test", "fixtures", "http", "dataset.json");

/** One request as a scripted server saw it. */
export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Scripted {
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

/** `n` is the 0-based number of the request: handlers script sequences (503, 503, then 200). */
export type ScriptedHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  n: number,
  body: string,
) => void;

/** Answers with a JSON body (`content-type: application/json`) and optional headers. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

/** A page envelope of `items`, cut at `offset`/`limit` unless told otherwise. */
export function envelope<T>(items: T[], limit: number, offset: number, hasMore: boolean) {
  return { data: items, limit, offset, has_more: hasMore };
}

/** A `node:http` server on 127.0.0.1 (any free port) that records requests and runs a script. */
export async function startScripted(handler: ScriptedHandler): Promise<Scripted> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const n = requests.length;
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, n, body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export interface ScriptedProxy {
  url: string;
  /** `host:port` of every CONNECT tunnel and absolute-form request the proxy was asked for. */
  targets: string[];
  close(): Promise<void>;
}

export interface ProxyBehaviour {
  /** What a CONNECT gets: a tunnel (default), no answer at all, or its socket dropped. */
  connect?: "tunnel" | "hang" | "drop";
  /** Hosts the proxy sends to 127.0.0.1 instead (names that never resolve, e.g. `*.invalid`). */
  local?: string[];
}

/** Loopback names and addresses: the only places a test may reach. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;

/**
 * A forwarding proxy on 127.0.0.1: CONNECT tunnels (what undici uses) and plain forwarding. It
 * forwards only to loopback and to the `local` names (sent to 127.0.0.1); anything else gets a
 * 502, so no test, even a failing one, reaches beyond loopback through it.
 */
export async function startProxy(behaviour: ProxyBehaviour = {}): Promise<ScriptedProxy> {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const loopbackFor = (name: string) =>
    behaviour.local?.includes(name) ? "127.0.0.1" : LOOPBACK.test(name) ? name : undefined;
  const server = http.createServer((req, res) => {
    // Absolute-form request: forward it.
    const target = new URL(req.url ?? "");
    targets.push(target.host);
    const host = loopbackFor(target.hostname);
    if (!host) return void res.writeHead(502).end();
    target.hostname = host;
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req: IncomingMessage, client: net.Socket, head: Buffer) => {
    targets.push(req.url ?? "");
    sockets.add(client);
    if (behaviour.connect === "hang") return;
    if (behaviour.connect === "drop") return void client.destroy();
    const [name, port] = (req.url ?? "").split(":");
    const host = loopbackFor(name ?? "");
    if (!host) return void client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    const upstream = net.connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on("error", drop);
    client.on("error", drop);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ServeProcess {
  url: string;
  proc: ResultPromise;
  /** Everything the server wrote on stderr so far (the access log). */
  stderr(): string;
  /** Everything the server wrote on stdout so far (only its URL line). */
  stdout(): string;
  /** Sends a signal and waits for the exit; resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | undefined>;
}

/** Starts `coverage serve --port 0 ...args` and waits for the URL line on stdout. */
export async function startServe(
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<ServeProcess> {
  const proc = execa("node", [BIN, "serve", "--port", "0", ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv(env),
    cwd: ROOT,
    stdin: "ignore",
    // Tests stop the server themselves; execa's cleanup kills it if the test process dies.
    cleanup: true,
  });
  let out = "";
  let err = "";
  proc.stderr?.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout?.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    void proc.then((r) =>
      reject(new Error(`serve exited (${r.exitCode}) before listening: ${err || r.stderr}`)),
    );
  });
  return {
    url,
    proc,
    stderr: () => err,
    stdout: () => out,
    stop: async (signal = "SIGTERM") => {
      proc.kill(signal);
      return (await proc).exitCode;
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** Raw HTTP as a checker would send it: optional key and JSON body; the body parsed if JSON. */
export async function sendRaw(
  base: string,
  pathAndQuery: string,
  init: { method?: string; key?: string | undefined; body?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (init.key !== undefined) headers["x-api-key"] = init.key;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(base + pathAndQuery, {
    method: init.method ?? "GET",
    headers,
    body: init.body,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}
