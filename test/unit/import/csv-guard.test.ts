// The CSV reader's limits on hostile tables (mcd-import.md, "Hostile input"): each input is made
// here, never committed.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readTable, type BadRow } from "../../../src/import/mcd/csv.js";
import { MAX_FIELD_CHARS, MAX_HEADER_CHARS } from "../../../src/import/mcd/csv-guard.js";
import { UsageError } from "../../../src/errors.js";

const source = (chunks: Iterable<Buffer>) => ({
  name: "lcd.csv",
  label: "x.zip > lcd.csv",
  open: async () => Readable.from(chunks),
});

async function read(chunks: Iterable<Buffer> | string, maxField?: number) {
  const got: Array<{ id: string; text: string; line: number }> = [];
  const bad: BadRow[] = [];
  await readTable(
    source(typeof chunks === "string" ? [Buffer.from(chunks, "latin1")] : chunks),
    ["id", "text"],
    (row) => {
      got.push({ id: row.get("id"), text: row.get("text"), line: row.line });
    },
    (b) => bad.push(b),
    maxField,
  );
  return { got, bad };
}

async function failure(chunks: Iterable<Buffer> | string): Promise<UsageError> {
  const err = await read(chunks).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

/** `n` bytes of `byte`, in chunks of 1 MB (a stream, as a zip entry would deliver them). */
function* repeat(byte: string, n: number): Generator<Buffer> {
  const mb = Buffer.alloc(1 << 20, byte);
  for (let left = n; left > 0; left -= mb.length)
    yield left >= mb.length ? mb : mb.subarray(0, left);
}

describe("CSV limits", () => {
  it("a first line longer than 64 KB is no header: exit 2 naming the file, before reading on", async () => {
    let served = 0;
    const chunks = function* () {
      for (const chunk of repeat("0", 50 << 20)) {
        served += chunk.length;
        yield chunk;
      }
    };
    const err = await failure(chunks());
    expect(err.message).toContain("x.zip > lcd.csv");
    expect(err.message).toContain("no CSV header");
    expect(err.exitCode).toBe(2);
    // Refused within the first chunks, not after the whole line.
    expect(served).toBeLessThan(8 << 20);
    expect(MAX_HEADER_CHARS).toBe(64 * 1024);
  });

  it.each([
    { kind: "quoted", open: '"', close: '"' },
    { kind: "unquoted", open: "", close: "" },
  ])(
    "a $kind field over the limit is a malformed row, named and counted; the rows after it are read",
    async ({ open, close }) => {
      // The limit is 16 MB (MAX_FIELD_CHARS); 1 MB here, so the test is quick on a small machine.
      const chunks = function* () {
        yield Buffer.from('id,text\r\n1,"small"\r\n2,' + open);
        yield* repeat("a", 3 << 20);
        yield Buffer.from(close + '\r\n3,after\r\n4,"a ""b"""\r\n');
      };
      const { got, bad } = await read(chunks(), 1 << 20);
      expect(got.map((r) => r.id)).toEqual(["1", "3", "4"]);
      expect(got[2]!.text).toBe('a "b"');
      expect(bad).toEqual([
        {
          file: "x.zip > lcd.csv",
          line: 3,
          reason: "the field 'text' is longer than 1 MB, the largest a field may be",
        },
      ]);
      expect(MAX_FIELD_CHARS).toBe(16 << 20);
    },
  );

  it("a quote never closed: exit 2 naming the file and the line where it opened", async () => {
    const err = await failure('id,text\r\n1,a\r\n2,"open\r\n3,b\r\n4,c\r\n');
    expect(err.message).toBe(
      "x.zip > lcd.csv: the quote that opens a field on line 3 is never closed",
    );
  });

  it("a quote left open mid-file, 'closed' lines later by the next quoted field: exit 2 naming where it opened", async () => {
    const err = await failure(
      'id,text\r\n1,"ok"\r\n2,"open\r\n3,b\r\n4,"next field" and more\r\n5,"x"\r\n',
    );
    expect(err.message).toContain("on line 3");
  });

  it("keeps quoted newlines, doubled quotes and commas as they are, and lines as the file shows them", async () => {
    const { got, bad } = await read('id,text\r\n1,"a ""b""\r\nc, d"\r\n2,e\r\n');
    expect(bad).toEqual([]);
    expect(got).toEqual([
      { id: "1", text: 'a "b"\r\nc, d', line: 2 },
      { id: "2", text: "e", line: 4 },
    ]);
  });

  it("a quote inside an unquoted field is the parser's malformed row, not an unclosed quote", async () => {
    const { got, bad } = await read('id,text\r\n1,5" wide\r\n2,b\r\n');
    expect(got.map((r) => r.id)).toEqual(["2"]);
    expect(bad).toHaveLength(1);
  });
});

describe("encodings", () => {
  const table = "id,text\r\n1,caf\u00e9 \u2013 ok\r\n";

  it.each([
    {
      name: "UTF-16 LE",
      bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(table, "utf16le")]),
    },
    {
      name: "UTF-16 BE",
      bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(table, "utf16le").swap16()]),
    },
    { name: "UTF-8", bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(table)]) },
  ])("$name with its byte-order mark is read by it", async ({ bytes }) => {
    const { got } = await read([bytes]);
    expect(got).toEqual([{ id: "1", text: "caf\u00e9 \u2013 ok", line: 2 }]);
  });

  it("UTF-16 without a byte-order mark is refused naming the encoding", async () => {
    const err = await failure([Buffer.from(table, "utf16le")]);
    expect(err.message).toContain("x.zip > lcd.csv");
    expect(err.message).toContain("UTF-16");
  });
});

// Pieces of 16 KB stand for the import's 1 MB ones: the same cuts on text 64 times smaller
// (converting megabytes through the DOM took ~20 s of the suite).
const PIECE = 16 * 1024;

describe("a large HTML field", () => {
  it("converts in pieces cut after block ends, with the same text as whole", async () => {
    const { htmlToMarkdownInPieces } = await import("../../../src/import/mcd/html-pieces.js");
    const { htmlToMarkdown } = await import("../../../src/import/mcd/html.js");
    const paragraph = (i: number) => `<p>Paragraph ${i} with <b>bold</b> words &amp; more.</p>\r\n`;
    const html = Array.from({ length: Math.ceil((PIECE * 3) / 50) }, (_, i) => paragraph(i)).join(
      "",
    );
    expect(html.length).toBeGreaterThan(PIECE * 2);
    expect(htmlToMarkdownInPieces(html, PIECE)).toBe(htmlToMarkdown(html));
  }, 120_000);

  it("cuts one paragraph larger than a piece in its text, at spaces, losing no word", async () => {
    const { htmlToMarkdownInPieces } = await import("../../../src/import/mcd/html-pieces.js");
    const { htmlToMarkdown } = await import("../../../src/import/mcd/html.js");
    const words = Array.from({ length: Math.ceil((PIECE * 3) / 8) }, (_, i) => `w${i}`);
    const html = `<p>${words.join(" ")}</p>`;
    expect(html.length).toBeGreaterThan(PIECE * 2);
    // The same words in the same order, one paragraph, as converted whole.
    expect(htmlToMarkdownInPieces(html, PIECE)).toBe(htmlToMarkdown(html));
    // A paragraph of bold runs: cut at a tag's start, every word kept in order.
    const bold = `<p>${words.map((w) => `<b>${w}</b>`).join(" ")}</p>`;
    const md = htmlToMarkdownInPieces(bold, PIECE);
    expect(md.replace(/\*\*/g, "").split(/\s+/)).toEqual(words);
  }, 120_000);
});
