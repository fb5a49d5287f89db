import { describe, expect, it } from "vitest";
import { formatDuration, formatProgress } from "../../../src/download/progress.js";

const MB = 1024 * 1024;

describe("formatProgress: percent, speed and time left", () => {
  it.each<[number, number | undefined, number, string]>([
    [MB, 4 * MB, 1000, "1.0 MB of 4.0 MB (25%), 1.0 MB/s, 3 s left"],
    [3 * MB, 4 * MB, 2000, "3.0 MB of 4.0 MB (75%), 1.5 MB/s, 1 s left"],
    [4 * MB, 4 * MB, 2000, "4.0 MB of 4.0 MB (100%), 2.0 MB/s, 0 s left"],
    [512 * 1024, 100 * MB, 1000, "512.0 KB of 100.0 MB (0%), 512.0 KB/s, 3 min 19 s left"],
    [MB, undefined, 500, "1.0 MB, 2.0 MB/s"],
    [0, 4 * MB, 0, "0 B of 4.0 MB (0%)"],
    [0, undefined, 0, "0 B"],
  ])("%i of %s after %i ms -> %s", (bytes, total, ms, text) => {
    expect(formatProgress(bytes, total, ms)).toBe(text);
  });

  it.each([
    [0, "0 s"],
    [59.4, "59 s"],
    [61, "1 min 1 s"],
    [3725, "1 h 2 min"],
  ])("formatDuration(%d) -> %s", (s, text) => {
    expect(formatDuration(s)).toBe(text);
  });
});
