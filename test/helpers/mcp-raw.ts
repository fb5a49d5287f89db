import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { BIN, ROOT, cleanEnv } from "./cli.js";

/** A JSON-RPC message as it came from the server. */
export type Reply = Record<string, unknown> & {
  id?: unknown;
  error?: { code: number; message: string };
  result?: Record<string, unknown>;
};

/** What a client sends first: initialize (id 0), then the initialized notification. */
export const HANDSHAKE: [Record<string, unknown>, Record<string, unknown>] = [
  {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/**
 * `coverage mcp` spawned from the built CLI and spoken to line by line, as a client that may
 * send anything (the SDK's client only sends what is valid).
 */
export class RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  private buffer = "";
  private readonly replies: Reply[] = [];
  private waiter: (() => void) | undefined;
  private reading = true;

  constructor(args: string[] = ["--today", "2026-11-21"]) {
    this.child = spawn(process.execPath, [BIN, ...args, "mcp"], {
      cwd: ROOT,
      env: cleanEnv() as NodeJS.ProcessEnv,
    });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) !== -1) {
        this.replies.push(JSON.parse(this.buffer.slice(0, nl)) as Reply);
        this.buffer = this.buffer.slice(nl + 1);
      }
      this.waiter?.();
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    // Writes to a server that went away must not crash the test process.
    this.child.stdin.on("error", () => undefined);
  }

  /** Stops reading stdout (a client that never reads it), or reads it again. */
  setReading(on: boolean): void {
    this.reading = on;
    if (on) this.child.stdout.resume();
    else this.child.stdout.pause();
  }

  /** Writes one line (a string, or a message serialized); returns write()'s answer. */
  send(line: string | Record<string, unknown>): boolean {
    const text = typeof line === "string" ? line : JSON.stringify(line);
    return this.child.stdin.write(`${text}\n`);
  }

  /** The next `n` replies, in the order they came. */
  async next(n = 1): Promise<Reply[]> {
    while (this.replies.length < n) {
      if (this.child.exitCode !== null)
        throw new Error(`the server exited (${this.child.exitCode}); stderr: ${this.stderr}`);
      let wake: () => void = () => undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        this.waiter = resolve;
        this.child.once("exit", wake);
      });
      this.child.removeListener("exit", wake);
      this.waiter = undefined;
    }
    return this.replies.splice(0, n);
  }

  /** initialize, then the initialized notification. */
  async initialize(): Promise<void> {
    this.send(HANDSHAKE[0]);
    await this.next();
    this.send(HANDSHAKE[1]);
  }

  /** The server's peak resident memory so far (VmHWM, Linux), in MB. */
  peakRssMb(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  }

  /** Closes stdin and waits for the exit code. */
  async close(): Promise<number | null> {
    if (!this.reading) this.setReading(true);
    this.child.stdin.end();
    if (this.child.exitCode !== null) return this.child.exitCode;
    return new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }
}
