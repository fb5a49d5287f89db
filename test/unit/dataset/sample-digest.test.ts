import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bundledDatasetPath, sampleDigestPath } from "../../../src/dataset/load.js";
import { isCheckedSample } from "../../../src/dataset/sample-digest.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-sample-digest-"));
const bytes = Buffer.from('{"format":"coverage-dataset"}');
const digestFile = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe("the bundled sample as the build checked it", () => {
  it.each([
    ["the same bytes", JSON.stringify({ size: bytes.length, crc32: crc32(bytes) }), true],
    ["another length", JSON.stringify({ size: bytes.length + 1, crc32: crc32(bytes) }), false],
    ["another CRC-32", JSON.stringify({ size: bytes.length, crc32: crc32(bytes) ^ 1 }), false],
    ["a digest that is not JSON", "{size", false],
    ["a digest without its fields", "{}", false],
    ["a digest that is null", "null", false],
    ["a digest that is a number", "324450", false],
  ])("%s: %s", (_, text, expected) => {
    expect(isCheckedSample(bytes, digestFile(`${_}.json`, text))).toBe(expected);
  });

  it("no digest (a checkout before its first build): not checked", () => {
    expect(isCheckedSample(bytes, path.join(dir, "missing.json"))).toBe(false);
  });

  it("the build records the shipped sample, so a start skips checking it again", () => {
    // The suite runs against a fresh build (test/global-setup.ts).
    expect(isCheckedSample(readFileSync(bundledDatasetPath()), sampleDigestPath())).toBe(true);
  });
});
