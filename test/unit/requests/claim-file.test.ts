import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { ROOT } from "../../helpers/cli.js";
import {
  MAX_RECORD_CHARS,
  readClaimRecords,
  type ClaimRecord,
} from "../../../src/requests/claim-file.js";

const STRAY_QUOTES = path.join(ROOT, "test", "fixtures", "check", "stray-quotes.csv");

// Reading a claims CSV: every line accounted for by its own number, a quote left open refused
// naming the line where it opened, and memory bounded whatever follows (streams that never end
// show it: a reader that held what it read, or waited for a good line, would never answer).

/**
 * A stream of `head`, then `line` again and again, for ever; counts the bytes it gave, and fails
 * the read once past `limit` (a reader that held on would otherwise read for ever).
 */
function endless(head: string, line: string, limit: number) {
  const stream = {
    given: 0,
    async *[Symbol.asyncIterator]() {
      const first = Buffer.from(head);
      stream.given += first.length;
      yield first;
      const chunk = Buffer.from(line.repeat(Math.ceil(16384 / line.length)));
      for (;;) {
        if (stream.given > limit) throw new Error(`read past ${limit} bytes`);
        stream.given += chunk.length;
        yield chunk;
      }
    },
  };
  return stream;
}

async function readAll(text: string): Promise<ClaimRecord[]> {
  const out: ClaimRecord[] = [];
  for await (const r of readClaimRecords(
    Readable.from([Buffer.from(text)]),
    "t.csv",
    () => undefined,
  ))
    out.push(r);
  return out;
}

const describeRecords = (records: ClaimRecord[]) =>
  records.map((r) =>
    "problem" in r ? `${r.line} skipped` : `${r.line} ${String(r.raw.procedure)}`,
  );

describe("claim CSV: quotes", () => {
  it("a quote that opens on line 3 and never closes: refused naming line 3", async () => {
    const text =
      'procedure,diagnosis,state\n97110,M54.50,CA\n"97110,M54.50,CA\nE0601,G47.33,NY\nE0601,G47.33,TX\n';
    const err = await readAll(text).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(
      "t.csv, line 3: the quote that opens a value on this line is never closed, so the lines after it cannot be read; nothing after it was checked",
    );
  });

  it("a quote closed lines later with text after it: refused naming the line where it opened", async () => {
    const text = 'procedure,diagnosis\n"97110,M54.50\n97110,M54.50\nE0601,"G47.33",TX\n';
    await expect(readAll(text)).rejects.toThrow(
      /^t\.csv, line 2: the quote that opens a value on this line is closed on line 4 with text after it/,
    );
  });

  it("a quote open before an endless stream of lines: refused within MAX_RECORD_CHARS", async () => {
    for (const line of ["\n", "E0601,G47.33\n"]) {
      // Bounded: the record's limit and a chunk or two past it, never the stream.
      const input = endless(
        'procedure,diagnosis\n97110,M54.50\n"CPT:97110,',
        line,
        MAX_RECORD_CHARS + 4 * 65536,
      );
      const seen: ClaimRecord[] = [];
      const err = await (async () => {
        for await (const r of readClaimRecords(input, "stdin", () => undefined)) seen.push(r);
      })().catch((e: unknown) => e);
      expect((err as Error).message).toMatch(
        /^stdin, line 3: the quote that opens a value on this line is still open 262,144 characters later/,
      );
      expect(describeRecords(seen)).toEqual(["2 97110"]);
    }
  });

  it("bad lines come out as they are read, never held until a good one", async () => {
    const input = endless("procedure,diagnosis\n", "97110,M54.50,extra\n", 200_000);
    const lines: number[] = [];
    for await (const r of readClaimRecords(input, "stdin", () => undefined)) {
      expect("problem" in r && r.problem.message).toBe(
        "3 values, more than the header's 2 columns",
      );
      lines.push(r.line);
      if (lines.length === 1000) break;
    }
    expect(lines).toEqual(Array.from({ length: 1000 }, (_, i) => i + 2));
  });

  it("each line once, by its own number: stray quotes skip their line only", async () => {
    // The lines: a formula with quotes inside, a bad code, a quoted code, a quote inside a
    // value, a quoted value over two lines, text after a closing quote, a blank line.
    const text = readFileSync(STRAY_QUOTES, "utf8");
    expect(describeRecords(await readAll(text))).toEqual([
      "2 skipped",
      "3 97110",
      "4 97110",
      "5 skipped",
      "6 97110",
      "8 skipped",
      "10 E0601",
    ]);
  });
});

describe("claim CSV: lines that never end", () => {
  it("a first line with no end (`cat /dev/zero | check --input -`): refused once past 65,536 characters, never read to its end", async () => {
    for (const bytes of ["\0", "a"]) {
      const input = endless("", bytes, 4 * 65536);
      const err = await (async () => {
        for await (const r of readClaimRecords(input, "stdin", () => undefined)) void r;
      })().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toBe(
        "stdin, line 1: the first line is longer than 65,536 characters; this is not a claims CSV or NDJSON file",
      );
    }
  });

  it("a later line with no end is named at once, and the stream read on without holding it", async () => {
    const input = endless("procedure,diagnosis\n97110,M54.50\n", "a", 8 * 65536);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const r of readClaimRecords(input, "stdin", () => undefined))
        seen.push("problem" in r ? `${r.line} ${r.problem.message}` : `${r.line} ok`);
    })().catch((e: unknown) => e);
    // The stream's own limit ends the read: the long line was reported before it.
    expect((err as Error).message).toMatch(/^read past/);
    expect(seen).toEqual(["2 ok", "3 longer than 65,536 characters"]);
  });
});

describe("claim CSV: encodings", () => {
  it.each([
    [
      "with its byte-order mark",
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from("procedure,diagnosis\n97110,M54.50\n", "utf16le"),
      ]),
    ],
    ["without one", Buffer.from("procedure,diagnosis\n97110,M54.50\n", "utf16le")],
  ])("UTF-16 %s is named as such, with the fix (findings reliability-2 C4)", async (_, bytes) => {
    const read = async () => {
      for await (const r of readClaimRecords(Readable.from([bytes]), "u.csv", () => undefined))
        void r;
    };
    await expect(read()).rejects.toThrow(
      "u.csv, line 1: the file looks like UTF-16 text (every other byte is NUL); save it as UTF-8 CSV",
    );
  });
});
