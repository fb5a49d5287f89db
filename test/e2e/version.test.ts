import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/cli/version.js";
import { ROOT, runCoverage } from "../helpers/cli.js";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  version: string;
};

describe.concurrent("--version", () => {
  it("is the package's version", () => {
    expect(VERSION).toBe(pkg.version);
  });

  // `--version` alone takes the fast path (no commander); with any other argument, commander
  // answers it. Both must print the same thing.
  // `-V` too, as most CLIs take it (finding 30).
  it.each([[["--version"]], [["--quiet", "--version"]], [["--version", "--no-color"]], [["-V"]]])(
    "%j prints the version alone on stdout, exit 0",
    async (args) => {
      const r = await runCoverage(args);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(pkg.version);
      expect(r.stderr).toBe("");
    },
  );
});
