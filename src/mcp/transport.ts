import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { boundResultText } from "./bound-text.js";
import { MAX_MESSAGE_BYTES, MAX_RUNNING_CALLS, MAX_WAITING_CALLS } from "./limits.js";

type Id = string | number;

export interface TransportLimits {
  /** The largest line read; a longer one is answered with an error and skipped. */
  maxMessageBytes: number;
  /** Tool calls run at once; more wait their turn, read and queued. */
  maxRunning: number;
  /** Tool calls queued before the server stops reading stdin. */
  maxWaiting: number;
}

// Part of a refused line kept to find its id in (the SDK's client writes the id last).
const EDGE = 4096;
// Queued calls hold at most this much of the client's input.
const WAITING_BYTES = 8 * 1024 * 1024;
const ID = String.raw`("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})`;
// The top-level id near the start (`{"jsonrpc":"2.0","id":7,...`) or at the end (`...,"id":7}`).
const ID_FIRST = new RegExp(
  String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"]{0,100}"\s*,\s*){0,2}"id"\s*:\s*${ID}`,
);
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/** The id of a message too long to read, when its edges show it; else null (JSON-RPC's "unknown"). */
export function findLineId(head: string, tail: string): Id | null {
  const raw = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail)?.[1];
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as Id;
  } catch {
    return null;
  }
}

/** A line too long to read: its size, and its first and last bytes. */
interface Oversize {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

/**
 * The SDK's stdio transport with what JSON-RPC 2.0 and a hostile client need on top: every line
 * is answered (a parse error, an invalid request, a message over the size limit each get their
 * error reply, id null when it cannot be known), lines are read with bounded memory (a long one
 * is skipped as it comes, never held), tool calls run a few at a time (the rest queued, read,
 * while a ping or tools/list behind them is answered at once), and stdin is paused while stdout
 * is not drained or the queue is full, so a client that does not read holds the server's memory
 * flat. Tool result text is bounded on the way out (the SDK's own errors too).
 */
export class BoundedStdioTransport extends StdioServerTransport {
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly limits: TransportLimits;
  private readonly log: (line: string) => void;
  // The line being read: its pieces and their size; or, past the limit, what is kept of it.
  private pieces: Buffer[] = [];
  private size = 0;
  private oversize: Oversize | undefined;
  // Requests handed to the server and not answered yet, by id (a client may reuse one): tool
  // calls, and the rest (ping, tools/list: quick, never queued behind the calls).
  private readonly running = new Map<Id, number>();
  private readonly inFlight = new Map<Id, number>();
  private runningCount = 0;
  // Tool calls read while `maxRunning` ran, with their size, in the order they came.
  private readonly waiting: Array<{ message: JSONRPCRequest; bytes: number }> = [];
  private waitingBytes = 0;
  private pumping = false;
  private outputBlocked = false;
  private paused = false;
  private closed = false;
  // What stdin brought past the line at which reading paused: read first when it resumes.
  private backlog: Buffer | undefined;
  private done: (() => void) | undefined;

  constructor(
    input: Readable,
    output: Writable,
    log: (line: string) => void,
    limits: Partial<TransportLimits> = {},
  ) {
    super(input, output);
    this.input = input;
    this.output = output;
    this.log = log;
    this.limits = {
      maxMessageBytes: limits.maxMessageBytes ?? MAX_MESSAGE_BYTES,
      maxRunning: limits.maxRunning ?? MAX_RUNNING_CALLS,
      maxWaiting: limits.maxWaiting ?? MAX_WAITING_CALLS,
    };
    // The base class listens with this function (and removes it on close): its reader, with
    // a 10 MiB buffer that closes the transport when passed, is not used.
    this._ondata = (chunk: Buffer) => {
      if (this.backlog) this.backlog = Buffer.concat([this.backlog, chunk]);
      else this.take(chunk);
    };
  }

  override close(): Promise<void> {
    this.closed = true;
    return super.close();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const answered =
      isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) ? message.id : undefined;
    if (isJSONRPCResultResponse(message))
      message = { ...message, result: boundResultText(message.result) };
    this.write(message);
    if (answered !== undefined) this.settle(answered);
    return Promise.resolve();
  }

  /**
   * Resolves once every line read so far has been handed on and every request answered: at the
   * end of stdin, what waited behind the open requests is still answered before the server closes.
   */
  whenDone(): Promise<void> {
    return new Promise((resolve) => {
      this.done = resolve;
      this.checkDone();
    });
  }

  private checkDone(): void {
    const open = this.inFlight.size + this.runningCount + this.waiting.length;
    if (!this.done || this.backlog || open > 0) return;
    const done = this.done;
    this.done = undefined;
    done();
  }

  /** Splits a chunk of stdin into lines; a line past the limit is counted, not kept. */
  private take(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (this.oversize) {
        this.oversize.bytes += piece.length;
        this.oversize.tail = keepTail(this.oversize.tail, piece);
      } else if (this.size + piece.length > this.limits.maxMessageBytes) {
        const line = Buffer.concat([...this.pieces, piece]);
        this.oversize = {
          bytes: line.length,
          head: Buffer.from(line.subarray(0, EDGE)),
          tail: Buffer.from(line.subarray(-EDGE)),
        };
        this.pieces = [];
        this.size = 0;
      } else {
        this.pieces.push(piece);
        this.size += piece.length;
      }
      if (nl === -1) return;
      start = nl + 1;
      if (this.oversize) {
        this.refuseLong(this.oversize);
        this.oversize = undefined;
      } else {
        const line = Buffer.concat(this.pieces).toString("utf8");
        this.pieces = [];
        this.size = 0;
        this.read(line, line.length);
      }
      // Paused by that line: the rest of the chunk waits, so that no more is taken on.
      if (this.paused && start < chunk.length) {
        this.backlog = Buffer.from(chunk.subarray(start));
        return;
      }
    }
  }

  private refuseLong(line: Oversize): void {
    const id = findLineId(line.head.toString("utf8"), line.tail.toString("utf8"));
    const what = `a message of ${line.bytes.toLocaleString("en-US")} bytes, over the ${this.limits.maxMessageBytes.toLocaleString("en-US")}-byte limit`;
    this.log(`coverage mcp: refused ${what}${id === null ? "" : ` (id ${JSON.stringify(id)})`}`);
    this.replyError(
      id,
      ErrorCode.InvalidRequest,
      `Invalid Request: ${what}; nothing of it was read`,
    );
  }

  /** One line: a message handed to the server, or the JSON-RPC error it earns. */
  private read(text: string, bytes: number): void {
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.log(`coverage mcp: refused a line that is not JSON (${(err as Error).message})`);
      this.replyError(null, ErrorCode.ParseError, `Parse error: ${(err as Error).message}`);
      return;
    }
    if (Array.isArray(value)) {
      this.replyError(
        null,
        ErrorCode.InvalidRequest,
        "Invalid Request: batches are not supported (MCP 2025-06-18 removed JSON-RPC batching); send one message per line",
      );
      return;
    }
    if (value === null || typeof value !== "object") {
      this.replyError(
        null,
        ErrorCode.InvalidRequest,
        "Invalid Request: a message is a JSON object",
      );
      return;
    }
    const fields = value as Record<string, unknown>;
    const hasId = "id" in fields;
    const id = typeof fields.id === "string" || typeof fields.id === "number" ? fields.id : null;
    const isAnswer = "result" in fields || "error" in fields;
    const problem =
      fields.jsonrpc !== "2.0"
        ? `"jsonrpc" must be "2.0"`
        : hasId && id === null
          ? "an id is a string or a number"
          : undefined;
    const parsed = problem ? undefined : JSONRPCMessageSchema.safeParse(value);
    if (!parsed?.success) {
      const why = problem ?? "not a JSON-RPC request, notification or response";
      // An answer from the client is never answered back (JSON-RPC 2.0): logged only.
      if (isAnswer && "method" in fields === false) this.log(`coverage mcp: ignored ${why}`);
      else this.replyError(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
      return;
    }
    const message = parsed.data;
    if (isJSONRPCRequest(message) && message.method === "tools/call") {
      // Calls past `maxRunning` wait their turn; the messages behind them are read on.
      this.waiting.push({ message, bytes });
      this.waitingBytes += bytes;
      this.pump();
      this.updateFlow();
      return;
    }
    if (isJSONRPCRequest(message)) count(this.inFlight, message.id, 1);
    else if ("method" in message && message.method === "notifications/cancelled") {
      // The SDK sends no answer to a cancelled request: it no longer counts (and a call
      // still waiting is never run).
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === "string" || typeof cancelled === "number") {
        const queued = this.waiting.findIndex((w) => w.message.id === cancelled);
        if (queued !== -1) {
          this.waitingBytes -= this.waiting[queued]!.bytes;
          this.waiting.splice(queued, 1);
          this.updateFlow();
          this.checkDone();
          return;
        }
        this.settle(cancelled);
      }
    }
    this.onmessage?.(message);
  }

  /** Runs waiting calls while fewer than `maxRunning` run. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      // Not while stdout is full: each answer would only add to its buffer.
      while (
        !this.outputBlocked &&
        this.waiting.length > 0 &&
        this.runningCount < this.limits.maxRunning
      ) {
        const { message, bytes } = this.waiting.shift()!;
        this.waitingBytes -= bytes;
        count(this.running, message.id, 1);
        this.runningCount++;
        this.onmessage?.(message);
      }
    } finally {
      this.pumping = false;
    }
  }

  private replyError(id: Id | null, code: number, message: string): void {
    this.write({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private settle(id: Id): void {
    if (this.running.has(id)) {
      count(this.running, id, -1);
      this.runningCount--;
      // Next turn: the answer just written goes first, and stdin gets a turn in between.
      if (this.waiting.length > 0)
        setImmediate(() => {
          this.pump();
          this.updateFlow();
        });
    } else if (this.inFlight.has(id)) count(this.inFlight, id, -1);
    else return;
    this.updateFlow();
    this.checkDone();
  }

  /** Writes one message; a stdout that is not drained stops the reading until it is. */
  private write(message: JSONRPCMessage): void {
    if (this.output.write(serializeMessage(message)) || this.outputBlocked) return;
    this.outputBlocked = true;
    this.output.once("drain", () => {
      this.outputBlocked = false;
      this.pump();
      this.updateFlow();
    });
    this.updateFlow();
  }

  private updateFlow(): void {
    if (this.closed) return;
    const hold =
      this.outputBlocked ||
      this.waiting.length >= this.limits.maxWaiting ||
      this.waitingBytes >= WAITING_BYTES;
    if (hold && !this.paused) {
      this.paused = true;
      this.input.pause();
    } else if (!hold && this.paused) {
      this.paused = false;
      const backlog = this.backlog;
      this.backlog = undefined;
      if (backlog) this.take(backlog);
      // The backlog may have paused it again.
      if (!this.paused) this.input.resume();
    }
  }
}

/** Adds `by` to a count by id, removing it at 0. */
function count(counts: Map<Id, number>, id: Id, by: number): void {
  const n = (counts.get(id) ?? 0) + by;
  if (n > 0) counts.set(id, n);
  else counts.delete(id);
}

function keepTail(tail: Buffer, piece: Buffer): Buffer {
  if (piece.length >= EDGE) return Buffer.from(piece.subarray(-EDGE));
  return Buffer.concat([tail, piece]).subarray(-EDGE);
}
