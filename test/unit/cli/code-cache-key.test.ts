import { describe, expect, it } from "vitest";
import { codeCacheKey } from "../../../src/cli/load-bundle.js";

const PLAIN = `${process.versions.v8}-${process.arch}`;

describe("codeCacheKey: the V8 a code cache is for", () => {
  it.each<[string, string[], string]>([
    ["no options", [], ""],
    ["-e and its code", ["-e", "0"], ""],
    [
      "-p, --require and --import with their values",
      ["-p", "1", "--require", "x.cjs", "--import", "y.mjs"],
      "",
    ],
    ["--name=value forms", ["--require=x.cjs", "--cpu-prof-dir=/tmp", "--title=t"], ""],
    [
      "profiling and inspecting",
      ["--cpu-prof", "--heap-prof", "--inspect=9229", "--enable-source-maps"],
      "",
    ],
    ["--no-warnings in NODE_OPTIONS", [], "--no-warnings"],
  ])("Node's own options leave it plain: %s", (_, execArgv, nodeOptions) => {
    expect(codeCacheKey(execArgv, nodeOptions)).toBe(PLAIN);
  });

  it.each<[string, string[], string]>([
    ["a heap size", ["--max-old-space-size=4096"], ""],
    ["a heap size in NODE_OPTIONS", [], "--max-old-space-size=4096"],
    ["a stack size after the script's own options", ["-e", "0", "--stack-size=900"], ""],
    ["an option we do not know", ["--jitless"], ""],
  ])("other options go into it as a hash: %s", (_, execArgv, nodeOptions) => {
    const key = codeCacheKey(execArgv, nodeOptions);
    expect(key).toMatch(new RegExp(`^${PLAIN.replace(/[.]/g, "\\.")}-[0-9a-f]{8}$`));
    expect(codeCacheKey(execArgv, nodeOptions)).toBe(key);
  });

  it("different V8 options, different keys", () => {
    expect(codeCacheKey(["--max-old-space-size=4096"])).not.toBe(
      codeCacheKey(["--max-old-space-size=8192"]),
    );
  });
});
