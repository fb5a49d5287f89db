import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32 } from "../../../src/crc32.js";

// The loader asks zlib's native binding for CRC-32 (node:zlib itself was ~2 ms of each start):
// it must give the module's numbers, or caches made by one would be refused by the other.
describe("the loader's CRC-32", () => {
  it.each([
    ["empty", Buffer.alloc(0)],
    ["text", Buffer.from("coverage-code-cache-3\n")],
    ["a value with the top bit set", Buffer.from("x")],
    ["a large buffer", Buffer.alloc(1 << 20, 7)],
  ])("%s", (_, data) => {
    expect(crc32(data)).toBe(zlibCrc32(data));
    expect(crc32(data)).toBeGreaterThanOrEqual(0);
  });

  it("a string, as codeCacheKey hashes options", () => {
    expect(crc32("--max-old-space-size=100\0--jitless")).toBe(
      zlibCrc32("--max-old-space-size=100\0--jitless"),
    );
  });
});
