import { Transform, type TransformCallback } from "node:stream";
import { UsageError } from "../../errors.js";

/** The longest header line a CSV table may have (characters): longer is no CSV header. */
export const MAX_HEADER_CHARS = 64 * 1024;
/**
 * The largest field (characters); a larger one makes its row malformed, and is not kept. The
 * import holds about 13 times a field at its peak (bytes, text, markdown, the converter's DOM):
 * 16 MB keeps the worst row under what the whole published export costs (~430 MB), at over 100
 * times the largest fields CMS writes (HTML of 128 KB and more). mcd-import.md's 64 MB let one
 * 50 MB field cost 670-780 MB (findings/reliability.md 2h).
 */
export const MAX_FIELD_CHARS = 16 * 1024 * 1024;
/** Put in place of a field's text past MAX_FIELD_CHARS: the row reader reports the row. */
export const FIELD_TOO_LARGE = "\u0000coverage: field over the limit\u0000";

const QUOTE = '"';

/**
 * Watches a CSV table's text on its way to the parser, at the cost of one `indexOf` per quote
 * and line: the header must end within MAX_HEADER_CHARS (exit 2 at once, naming the file); a
 * field past MAX_FIELD_CHARS is cut to a marker (memory stays at the limit, the row is reported
 * as malformed, the parse goes on); a quote that opens a field and is never closed, or is
 * "closed" lines later by a quote followed by text (which means the quotes paired wrongly from
 * there on), is exit 2 naming the line where it opened: the rows it swallowed would otherwise
 * be lost without a word.
 */
export class CsvGuard extends Transform {
  #line = 1;
  #inQuote = false;
  /** Inside a quoted field, the last chunk ended on a quote: a doubled one, or the closing one. */
  #pendingQuote = false;
  #quoteLine = 0;
  #prev = "\n";
  /** Characters of the current field (quoted) or line (unquoted), and whether it is being cut. */
  #run = 0;
  #cutting = false;

  constructor(
    private readonly label: string,
    private readonly maxField = MAX_FIELD_CHARS,
  ) {
    super({ decodeStrings: false, encoding: "utf8" });
  }

  override _transform(chunk: string | Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      const out = this.#scan(text);
      if (out) this.push(out);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    if (this.#inQuote && !this.#pendingQuote)
      return done(this.#unclosed(this.#quoteLine, "is never closed"));
    done();
  }

  #unclosed(line: number, how: string): UsageError {
    return new UsageError(
      `${this.label}: the quote that opens a field on line ${line} ${how}`,
      "The file is damaged (a field's quotes are unbalanced), and the rows after it cannot be read; download the export again.",
    );
  }

  #tooLongHeader(): UsageError {
    return new UsageError(
      `${this.label}: the first line is longer than ${MAX_HEADER_CHARS / 1024} KB, so it is no CSV header`,
      "The file is not a table of the MCD export (or is damaged); download the export again.",
    );
  }

  /** Counts newlines in text[from, to) and keeps the header limit. */
  #lines(text: string, from: number, to: number): void {
    for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1))
      this.#line++;
  }

  /** Adds `n` characters to the current field or line; true once past the limit. */
  #grow(n: number): boolean {
    this.#run += n;
    if (this.#line === 1 && this.#run > MAX_HEADER_CHARS) throw this.#tooLongHeader();
    return this.#run > this.maxField;
  }

  #scan(text: string): string {
    let out = "";
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.#inQuote) {
        if (this.#pendingQuote) {
          this.#pendingQuote = false;
          if (text[i] === QUOTE) {
            // A doubled quote inside the field.
            if (!this.#cutting) out += QUOTE + QUOTE;
            i++;
            continue;
          }
          // The closing quote: it must end the field.
          const next = text[i]!;
          if (next !== "," && next !== "\r" && next !== "\n" && this.#line > this.#quoteLine)
            throw this.#unclosed(this.#quoteLine, `is not closed where its field ends`);
          this.#inQuote = false;
          out += this.#cutting ? `${FIELD_TOO_LARGE}${QUOTE}` : QUOTE;
          this.#cutting = false;
          this.#run = 0;
          this.#prev = QUOTE;
          continue;
        }
        const q = text.indexOf(QUOTE, i);
        const end = q === -1 ? n : q;
        this.#lines(text, i, end);
        if (!this.#cutting && this.#grow(end - i)) this.#cutting = true;
        if (!this.#cutting) out += text.slice(i, end);
        if (q === -1) return out;
        this.#pendingQuote = true;
        i = q + 1;
        continue;
      }
      // Outside quotes: the next quote or line end, whichever comes first.
      const q = text.indexOf(QUOTE, i);
      const nl = text.indexOf("\n", i);
      if (nl !== -1 && (q === -1 || nl < q)) {
        if (!this.#cutting) this.#grow(nl - i);
        // A cut line keeps its own line end (the parser knows records by it: CRLF or LF).
        const crlf = nl > i ? text[nl - 1] === "\r" : this.#prev === "\r";
        out += this.#cutting ? `${FIELD_TOO_LARGE}${crlf ? "\r\n" : "\n"}` : text.slice(i, nl + 1);
        this.#cutting = false;
        this.#line++;
        this.#run = 0;
        this.#prev = "\n";
        i = nl + 1;
        continue;
      }
      const end = q === -1 ? n : q;
      if (!this.#cutting && this.#grow(end - i)) this.#cutting = true;
      if (!this.#cutting) out += text.slice(i, end);
      if (q === -1) {
        if (end > i) this.#prev = text[end - 1]!;
        return out;
      }
      const before = q > i ? text[q - 1]! : this.#prev;
      if (!this.#cutting) out += QUOTE;
      // A quote opens a field only where a field starts; elsewhere the parser reports the row.
      if (before === "," || before === "\n" || before === "\r") {
        this.#inQuote = true;
        this.#quoteLine = this.#line;
        this.#run = 0;
      }
      this.#prev = QUOTE;
      i = q + 1;
    }
    return out;
  }
}

/** A decoder as iconv-lite gives one: bytes in, text out, what is held back given at the end. */
export interface TextDecoderLike {
  write(buf: Buffer): string;
  end(): string | undefined;
}

/**
 * Decodes a table's bytes by its byte-order mark: UTF-16 (LE or BE) and UTF-8 when marked, else
 * UTF-8 where the bytes form it and Windows-1252 elsewhere (CMS has published both unmarked).
 * UTF-16 without a mark (NUL bytes in its first line) is refused naming the encoding, not read
 * as garbage that "has no column".
 */
export class TableDecoder extends Transform {
  #decoder: TextDecoderLike | undefined;
  #head = Buffer.alloc(0);

  constructor(
    private readonly label: string,
    private readonly getDecoder: (encoding: string) => TextDecoderLike,
  ) {
    super({ decodeStrings: true, encoding: "utf8" });
  }

  #choose(head: Buffer): string {
    if (head[0] === 0xff && head[1] === 0xfe) return "utf16le";
    if (head[0] === 0xfe && head[1] === 0xff) return "utf16be";
    if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf8";
    const sample = head.subarray(0, 512);
    if (sample.length >= 4 && sample.includes(0)) {
      const nuls = sample.filter((b) => b === 0).length;
      if (nuls * 4 >= sample.length)
        throw new UsageError(
          `${this.label}: the file looks like UTF-16 text without a byte-order mark`,
          "Save it as UTF-8 or Windows-1252 (as CMS publishes it), or as UTF-16 with its byte-order mark.",
        );
    }
    return "win1252";
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      if (!this.#decoder) {
        this.#head = Buffer.concat([this.#head, chunk]);
        if (this.#head.length < 4) return done();
        this.#decoder = this.getDecoder(this.#choose(this.#head));
        chunk = this.#head;
        this.#head = Buffer.alloc(0);
      }
      const text = this.#decoder.write(chunk);
      if (text) this.push(text);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.#decoder && this.#head.length) {
        this.#decoder = this.getDecoder(this.#choose(this.#head));
        const text = this.#decoder.write(this.#head);
        if (text) this.push(text);
      }
      const rest = this.#decoder?.end();
      if (rest) this.push(rest);
      done();
    } catch (err) {
      done(err as Error);
    }
  }
}
