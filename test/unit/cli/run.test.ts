import { describe, expect, it } from "vitest";
import { asksVerbose } from "../../../src/cli/run.js";

describe("asksVerbose (the stack trace of an error commander raised itself)", () => {
  it.each<[string[], boolean]>([
    [["search", "--verbose"], true],
    [["-v", "search"], true],
    [["-qv", "search"], true],
    [["-vq", "search"], true],
    [["search", "--verbose=x"], false],
    [["search", "-q"], false],
    [["search", "--", "-v"], false],
    [["search", "--value"], false],
    [["search", "-"], false],
  ])("%j -> %s", (argv, verbose) => {
    expect(asksVerbose(argv)).toBe(verbose);
  });
});
