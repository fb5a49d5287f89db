import { isUtf8 } from "node:buffer";
import iconv from "iconv-lite";
import { TableDecoder, type TextDecoderLike } from "./csv-guard.js";

// The 128 upper bytes as Windows-1252 reads them, in UTF-8 (iconv-lite: right on every Node,
// where Node 20's small-ICU TextDecoder drops 0x80-0x9F).
const WIN1252_HIGH_UTF8 = Array.from({ length: 128 }, (_, i) =>
  Buffer.from(iconv.decode(Buffer.from([0x80 + i]), "win1252"), "utf8"),
);

/** Length of the UTF-8 sequence led by `lead`, or 0 when `lead` leads none. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether `byte` may stand at position `at` (1-based) of the sequence led by `lead`. */
function continues(lead: number, at: number, byte: number): boolean {
  if (at === 1) {
    // The ranges that keep out overlong forms, surrogates and code points past U+10FFFF.
    if (lead === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
    if (lead === 0xed) return byte >= 0x80 && byte <= 0x9f;
    if (lead === 0xf0) return byte >= 0x90 && byte <= 0xbf;
    if (lead === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  }
  return byte >= 0x80 && byte <= 0xbf;
}

/**
 * A decoder for the export's text, which CMS has published as Windows-1252 and, in later
 * weeks, as UTF-8 without a byte-order mark: every well-formed UTF-8 sequence is read as UTF-8,
 * every other upper byte as Windows-1252. Each encoding alone decodes exactly; Windows-1252
 * text that happens to form UTF-8 (an `Â` before a symbol) is mojibake in any reading.
 * Sequences split between chunks are held until the next one.
 */
export function createUtf8OrWin1252Decoder(): TextDecoderLike {
  let held: Buffer = Buffer.alloc(0);
  // ignoreBOM: a chunk is no stream start; TableDecoder reads a leading mark itself.
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

  /** Bytes at the end of `buf` that begin a sequence the next chunk may complete. */
  function incompleteTail(buf: Buffer): number {
    for (let back = 1; back <= 3 && back <= buf.length; back++) {
      const lead = buf[buf.length - back]!;
      if (lead < 0x80) return 0;
      const length = sequenceLength(lead);
      if (length === 0) continue; // a continuation byte: look further back
      if (length <= back) return 0;
      for (let i = 1; i < back; i++) if (!continues(lead, i, buf[buf.length - back + i]!)) return 0;
      return back;
    }
    return 0;
  }

  let scratch = Buffer.alloc(0);
  /** `buf` with every byte that is no UTF-8 rewritten as its Windows-1252 character, decoded once. */
  function decodeMixed(buf: Buffer): string {
    // One flat string per chunk (not one piece per odd byte): the CSV parser reads it by index.
    if (scratch.length < buf.length * 3) scratch = Buffer.allocUnsafe(buf.length * 3);
    let out = 0;
    let run = 0; // start of the pending run of ASCII or well-formed UTF-8
    let i = 0;
    while (i < buf.length) {
      const byte = buf[i]!;
      if (byte < 0x80) {
        i++;
        continue;
      }
      const length = sequenceLength(byte);
      let ok = length > 0 && i + length <= buf.length;
      for (let k = 1; ok && k < length; k++) ok = continues(byte, k, buf[i + k]!);
      if (ok) {
        i += length;
        continue;
      }
      out += buf.copy(scratch, out, run, i);
      out += WIN1252_HIGH_UTF8[byte - 0x80]!.copy(scratch, out);
      i++;
      run = i;
    }
    out += buf.copy(scratch, out, run, i);
    return utf8.decode(scratch.subarray(0, out));
  }

  function decode(buf: Buffer): string {
    // Most chunks are all one encoding: isUtf8 and TextDecoder run natively.
    return isUtf8(buf) ? utf8.decode(buf) : decodeMixed(buf);
  }

  return {
    write(chunk: Buffer): string {
      const buf = held.length ? Buffer.concat([held, chunk]) : chunk;
      const keep = incompleteTail(buf);
      held = keep ? Buffer.from(buf.subarray(buf.length - keep)) : Buffer.alloc(0);
      return decode(keep ? buf.subarray(0, buf.length - keep) : buf);
    },
    end(): string | undefined {
      const rest = held;
      held = Buffer.alloc(0);
      return rest.length ? decodeMixed(rest) : undefined;
    },
  };
}

/**
 * Decodes a file of the export or a CMS code set: by its byte-order mark when it has one, else
 * UTF-8 where the bytes form it and Windows-1252 elsewhere; UTF-16 without a mark is refused
 * naming `label`. Tables and line readers share it.
 */
export function exportTextDecoder(label: string): TableDecoder {
  return new TableDecoder(label, (encoding) =>
    encoding === "win1252" ? createUtf8OrWin1252Decoder() : iconv.getDecoder(encoding),
  );
}
