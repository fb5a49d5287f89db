import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { UsageError } from "../errors.js";
import { jsonPath } from "./check.js";
import { makeItemCheckers } from "./fast-check.js";
import { badDataset, describeItemProblems } from "./load.js";
import type { DatasetSink } from "./sink.js";

/** What the top level of a dataset said besides its lists. */
export interface DatasetHead {
  as_of: string | null;
  /** Whether `as_of` was written at all, and the optional `codes` list. */
  asOfGiven: boolean;
  codesGiven: boolean;
}

const LISTS = ["payers", "lobs", "codes", "policies"] as const;
type ListKey = (typeof LISTS)[number];
const isList = (key: string): key is ListKey => (LISTS as readonly string[]).includes(key);

const MAX_PROBLEMS = 5;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BOM = [0xef, 0xbb, 0xbf];
const WS = new Uint8Array(256);
for (const b of [0x20, 0x09, 0x0a, 0x0d]) WS[b] = 1;
const DELIMITER = new Uint8Array(256);
for (const b of [0x20, 0x09, 0x0a, 0x0d, 0x2c, 0x5d, 0x7d]) DELIMITER[b] = 1;

type Phase = "start" | "key" | "colon" | "value" | "after" | "item" | "itemAfter" | "end";
type Kind = "key" | "value" | "item";

class NotJson extends Error {}

/**
 * Splits a dataset's JSON into its top-level fields and the items of its four lists, one item's
 * bytes at a time; each item is then parsed by JSON.parse. Memory stays at one item, so a file
 * larger than V8's longest string (~512 MB) is read as easily as a small one, and far faster than
 * a token-by-token parser in JavaScript. Only the structure between items is scanned here: every
 * value still goes through JSON.parse, which rejects what is not JSON.
 */
class ItemSplitter {
  #phase: Phase = "start";
  #key = "";
  #firstKey = true;
  /** Right after a list's `[`: a `]` closes it empty. */
  #emptyOk = false;
  #index = 0;
  #offset = 0;
  // The value being captured.
  #capturing: Kind | null = null;
  #parts: Buffer[] = [];
  #depth = 0;
  #inString = false;
  #escape = false;
  #scalar = false;

  constructor(
    private readonly onField: (key: string, value: Buffer) => void,
    private readonly onItem: (key: ListKey, index: number, value: Buffer) => void,
    private readonly onList: (key: ListKey) => void,
  ) {}

  #fail(at: number, what: string): never {
    throw new NotJson(`${what} at byte ${at}`);
  }

  push(chunk: Buffer): void {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.#capturing) {
        i = this.#capture(chunk, i);
        continue;
      }
      const b = chunk[i] as number;
      if (WS[b]) {
        i++;
        continue;
      }
      const at = this.#offset + i;
      // A byte-order mark is allowed, as the loader allows it (even split across chunks).
      if (this.#phase === "start" && at < 3 && b === BOM[at]) {
        i++;
        continue;
      }
      switch (this.#phase) {
        case "start":
          if (b !== 0x7b) this.#fail(at, "expected '{'");
          this.#phase = "key";
          i++;
          break;
        case "key":
          if (b === 0x7d && this.#firstKey) {
            this.#phase = "end";
            i++;
          } else if (b === QUOTE) this.#begin("key", chunk, i);
          else this.#fail(at, "expected a property name");
          break;
        case "colon":
          if (b !== 0x3a) this.#fail(at, "expected ':'");
          this.#phase = "value";
          i++;
          break;
        case "value":
          if (b === 0x5b && isList(this.#key)) {
            this.onList(this.#key);
            this.#phase = "item";
            this.#index = 0;
            this.#emptyOk = true;
            i++;
          } else this.#begin("value", chunk, i);
          break;
        case "item":
          if (b === 0x5d && this.#emptyOk) {
            this.#phase = "after";
            i++;
          } else this.#begin("item", chunk, i);
          this.#emptyOk = false;
          break;
        case "itemAfter":
          if (b === 0x2c) this.#phase = "item";
          else if (b === 0x5d) this.#phase = "after";
          else this.#fail(at, "expected ',' or ']'");
          i++;
          break;
        case "after":
          if (b === 0x2c) this.#phase = "key";
          else if (b === 0x7d) this.#phase = "end";
          else this.#fail(at, "expected ',' or '}'");
          this.#firstKey = false;
          i++;
          break;
        case "end":
          this.#fail(at, "unexpected text after the end");
      }
    }
    if (this.#capturing && this.#start < n) this.#parts.push(chunk.subarray(this.#start));
    this.#start = 0;
    this.#offset += n;
  }

  #start = 0;

  #begin(kind: Kind, chunk: Buffer, i: number): void {
    const b = chunk[i] as number;
    this.#capturing = kind;
    this.#parts = [];
    this.#start = i;
    this.#depth = 0;
    this.#escape = false;
    this.#inString = false;
    this.#scalar = false;
    if (b === QUOTE) this.#inString = true;
    else if (b === 0x7b || b === 0x5b) this.#depth = 1;
    else this.#scalar = true;
    // The first byte is taken: scanning goes on after it.
    this.#startAfter = true;
  }

  #startAfter = false;

  /** Scans a value from `i`; returns where scanning stopped (its end, or the chunk's end). */
  #capture(chunk: Buffer, i: number): number {
    if (this.#startAfter) {
      this.#startAfter = false;
      if (!this.#scalar) i++;
    }
    const n = chunk.length;
    for (; i < n; i++) {
      const b = chunk[i] as number;
      if (this.#inString) {
        if (this.#escape) this.#escape = false;
        else if (b === BACKSLASH) this.#escape = true;
        else if (b === QUOTE) {
          this.#inString = false;
          if (this.#depth === 0) return this.#complete(chunk, i + 1);
        }
        continue;
      }
      if (this.#scalar) {
        if (DELIMITER[b]) return this.#complete(chunk, i);
        continue;
      }
      if (b === QUOTE) this.#inString = true;
      else if (b === 0x7b || b === 0x5b) this.#depth++;
      else if (b === 0x7d || b === 0x5d) {
        if (--this.#depth === 0) return this.#complete(chunk, i + 1);
      }
    }
    return n;
  }

  #complete(chunk: Buffer, end: number): number {
    this.#parts.push(chunk.subarray(this.#start, end));
    const bytes =
      this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts);
    const kind = this.#capturing;
    this.#capturing = null;
    this.#parts = [];
    if (kind === "key") {
      this.#key = parseBytes(bytes, "(root)") as string;
      this.#phase = "colon";
    } else if (kind === "value") {
      this.onField(this.#key, bytes);
      this.#phase = "after";
    } else {
      this.onItem(this.#key as ListKey, this.#index++, bytes);
      this.#phase = "itemAfter";
    }
    return end;
  }

  end(): void {
    if (this.#phase !== "end" || this.#capturing)
      throw new NotJson(`unexpected end of the file at byte ${this.#offset}`);
  }
}

function parseBytes(bytes: Buffer, where: string): unknown {
  if (!isUtf8(bytes)) throw new NotJson(`${where}: not UTF-8 text`);
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch (err) {
    throw new NotJson(`${where}: ${(err as Error).message}`);
  }
}

/**
 * Streams a JSON dataset file into a sink, checking each item as `--data` checks it (the first
 * problems by JSON path). Does not finish the sink: the caller does, with the head returned.
 */
export async function streamDataset(
  file: string,
  sink: DatasetSink,
  options: { chunkSize?: number } = {},
): Promise<DatasetHead> {
  const problems: string[] = [];
  const fields = new Map<string, unknown>();
  const seenLists = new Set<ListKey>();
  const check = makeItemCheckers();
  const add = (line: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(line);
  };
  const splitter = new ItemSplitter(
    (key, bytes) => {
      const value = parseBytes(bytes, jsonPath([key]));
      if (isList(key)) {
        seenLists.add(key);
        add(`${key}: expected array, received ${value === null ? "null" : typeof value}`);
      } else fields.set(key, value);
    },
    (key, index, bytes) => {
      seenLists.add(key);
      if (problems.length >= MAX_PROBLEMS) return;
      const item = parseBytes(bytes, jsonPath([key, index]));
      if (!check[key](item)) {
        const lines = describeItemProblems(key, index, item);
        if (lines.length) {
          lines.forEach(add);
          return;
        }
      }
      if (problems.length) return; // Nothing more is written once the data is known bad.
      if (key === "payers") sink.addPayer(item as never);
      else if (key === "lobs") sink.addLob(item as never);
      else if (key === "codes") sink.addCode(item as never);
      else sink.addPolicy(item as never);
    },
    (key) => seenLists.add(key),
  );
  try {
    const stream = createReadStream(file, { highWaterMark: options.chunkSize ?? 1 << 20 });
    for await (const chunk of stream) splitter.push(chunk as Buffer);
    splitter.end();
  } catch (err) {
    if (err instanceof NotJson) throw badDataset(file, [`(root): not valid JSON: ${err.message}`]);
    const code = (err as NodeJS.ErrnoException).code;
    if (code)
      throw new UsageError(`cannot read dataset ${file} (${code})`, "Check the input path.");
    throw err;
  }
  if (fields.get("format") !== "coverage-dataset")
    problems.unshift(`format: expected "coverage-dataset"`);
  if (fields.get("version") !== 1) problems.unshift("version: expected 1");
  const asOf = fields.get("as_of");
  if (!check.asOf(asOf)) problems.push("as_of: expected a real date YYYY-MM-DD or null");
  for (const key of ["payers", "lobs", "policies"] as const)
    if (!seenLists.has(key) && !fields.has(key)) problems.push(`${key}: required field missing`);
  if (problems.length) throw badDataset(file, problems.slice(0, MAX_PROBLEMS));
  return {
    as_of: (asOf as string | null | undefined) ?? null,
    asOfGiven: fields.has("as_of"),
    codesGiven: seenLists.has("codes"),
  };
}
