// The export's text decoder: CMS has published the tables as Windows-1252 and as UTF-8, both
// without a byte-order mark; each must come out exactly, whatever the chunking.
import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { createUtf8OrWin1252Decoder } from "../../../src/import/mcd/text-decoding.js";

function decode(...chunks: Buffer[]): string {
  const decoder = createUtf8OrWin1252Decoder();
  return chunks.map((c) => decoder.write(c)).join("") + (decoder.end() ?? "");
}

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

describe("UTF-8 or Windows-1252", () => {
  it.each([
    ["Windows-1252 en dash", hex("41 96 42"), "A\u2013B"],
    ["Windows-1252 apostrophe and quotes", hex("92 93 94"), "\u2019\u201c\u201d"],
    ["Windows-1252 e acute", Buffer.from("caf\xe9", "latin1"), "café"],
    ["UTF-8 en dash", Buffer.from("A–B"), "A–B"],
    ["UTF-8 four-byte", Buffer.from("x😀y"), "x😀y"],
    [
      "both in one table",
      Buffer.concat([Buffer.from("naïve – "), hex("96 92")]),
      "naïve – \u2013\u2019",
    ],
    ["overlong form is no UTF-8", hex("c0 80"), "À€"],
    ["encoded surrogate is no UTF-8", hex("ed a0 80"), "í\u00a0€"],
    [
      "past U+10FFFF is no UTF-8",
      hex("f4 90 80 80"),
      "ô\u0090€€".replace("\u0090", iconv.decode(hex("90"), "win1252")),
    ],
    ["a lead byte without its continuation", hex("e2 80 41"), "â€A"],
    ["a byte-order mark mid-text is kept", Buffer.from("a\uFEFFb"), "a\uFEFFb"],
  ])("%s", (_name, bytes, text) => {
    expect(decode(bytes)).toBe(text);
  });

  it("every upper byte alone reads as iconv-lite's Windows-1252 (0x80-0x9F included)", () => {
    for (let byte = 0x80; byte <= 0xff; byte++) {
      const bytes = Buffer.from([0x20, byte, 0x20]);
      expect(decode(bytes)).toBe(iconv.decode(bytes, "win1252"));
    }
  });

  it("any text written in either encoding comes back whole, however the bytes are split", () => {
    const win1252Text = fc
      .array(fc.integer({ min: 0x20, max: 0xff }), { maxLength: 40 })
      // Keep Windows-1252 text a real writer would produce: no A-circumflex or similar before a
      // symbol byte, which would form UTF-8 (mojibake in any reading).
      .map((bytes) =>
        bytes.map((b, i) =>
          b >= 0xc2 && b <= 0xf4 && (bytes[i + 1] ?? 0) >= 0x80 && (bytes[i + 1] ?? 0) <= 0xbf
            ? 0x41
            : b,
        ),
      )
      .map((bytes) => iconv.decode(Buffer.from(bytes), "win1252"));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "grapheme", maxLength: 40 }).map((t) => ({ t, bytes: Buffer.from(t) })),
          win1252Text.map((t) => ({ t, bytes: iconv.encode(t, "win1252") })),
        ),
        fc.array(fc.nat(), { maxLength: 4 }),
        ({ t, bytes }, cuts) => {
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          const chunks: Buffer[] = [];
          let from = 0;
          for (const p of points) {
            chunks.push(bytes.subarray(from, p));
            from = p;
          }
          chunks.push(bytes.subarray(from));
          expect(decode(...chunks)).toBe(t);
        },
      ),
    );
  });

  it("a sequence cut short at the end of the input reads as Windows-1252, not lost", () => {
    expect(decode(hex("41 e2 80"))).toBe("Aâ€");
    expect(decode(hex("41 e2"), hex("80"))).toBe("Aâ€");
  });
});
