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
} from "@modelcontextprotocol/sdk/types.js";
import { boundResultText } from "./bound-text.js";
import { MAX_IN_FLIGHT, MAX_MESSAGE_BYTES } from "./limits.js";

type Id = string | number;

export interface TransportLimits {
  /** The largest line read; a longer one is answered with an error and skipped. */
  maxMessageBytes: number;
  /** Requests being answered at once before the server stops reading. */
  maxInFlight: number;
}

// Part of a refused line kept to find its id in (the SDK's client writes the id last).
const EDGE = 4096;
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
 * is skipped as it comes, never held), and stdin is paused while stdout is not drained or too
 * many requests are being answered, so a client that does not read holds the server's memory
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
  // Requests the server has not answered yet, by id (a client may reuse one).
  private readonly inFlight = new Map<Id, number>();
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
      maxInFlight: limits.maxInFlight ?? MAX_IN_FLIGHT,
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
    if (!this.done || this.backlog || this.inFlight.size > 0) return;
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
        this.read(line);
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
  private read(text: string): void {
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
    if (isJSONRPCRequest(message)) {
      this.inFlight.set(message.id, (this.inFlight.get(message.id) ?? 0) + 1);
      this.updateFlow();
    } else if ("method" in message && message.method === "notifications/cancelled") {
      // The SDK sends no answer to a cancelled request: it no longer counts.
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === "string" || typeof cancelled === "number") this.settle(cancelled);
    }
    this.onmessage?.(message);
  }

  private replyError(id: Id | null, code: number, message: string): void {
    this.write({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private settle(id: Id): void {
    const n = this.inFlight.get(id);
    if (n === undefined) return;
    if (n > 1) this.inFlight.set(id, n - 1);
    else this.inFlight.delete(id);
    this.updateFlow();
    this.checkDone();
  }

  /** Writes one message; a stdout that is not drained stops the reading until it is. */
  private write(message: JSONRPCMessage): void {
    if (this.output.write(serializeMessage(message)) || this.outputBlocked) return;
    this.outputBlocked = true;
    this.output.once("drain", () => {
      this.outputBlocked = false;
      this.updateFlow();
    });
    this.updateFlow();
  }

  private updateFlow(): void {
    if (this.closed) return;
    const hold = this.outputBlocked || this.inFlight.size >= this.limits.maxInFlight;
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

function keepTail(tail: Buffer, piece: Buffer): Buffer {
  if (piece.length >= EDGE) return Buffer.from(piece.subarray(-EDGE));
  return Buffer.concat([tail, piece]).subarray(-EDGE);
}
