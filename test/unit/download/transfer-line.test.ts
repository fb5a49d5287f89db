import { describe, expect, it } from "vitest";
import { formatTransferLine } from "../../../src/download/save-file.js";

describe("formatTransferLine (download --verbose summary)", () => {
  it.each([
    [209_715_200, 0, 500, "received 209715200 bytes in 500 ms (400.0 MiB/s)"],
    [1_048_576, 100, 1100, "received 1048576 bytes in 1000 ms (1.0 MiB/s)"],
    [0, 10, 30, "received 0 bytes in 20 ms (0.0 MiB/s)"],
    // A clock that has not moved still gives a finite rate.
    [1024, 5, 5, "received 1024 bytes in 0 ms (976.6 MiB/s)"],
  ])("%d bytes from %d to %d ms", (bytes, start, now, line) => {
    expect(formatTransferLine(bytes, start, now)).toBe(line);
  });
});
