import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isSnapshotName, resolveDataDir, resolveNamedData } from "../../../src/dataset/data-dir.js";

describe("--data NAME: a snapshot of the data folder", () => {
  it.each([
    ["medicare", true],
    ["my-catalogue_2", true],
    ["medicare.db", false],
    ["./medicare", false],
    ["data/medicare", false],
    ["C:\\medicare", false],
    ["", false],
    ["-x", false],
  ])("%j is a bare name: %s", (value, bare) => {
    expect(isSnapshotName(value)).toBe(bare);
  });

  it("lives in $XDG_DATA_HOME/coverage (a relative XDG_DATA_HOME is ignored)", async () => {
    expect(await resolveDataDir({ XDG_DATA_HOME: "/srv/data" })).toBe(
      path.join("/srv/data", "coverage"),
    );
    expect(await resolveDataDir({ XDG_DATA_HOME: "relative" })).not.toContain("relative");
  });

  it("resolves a name to NAME.db there; a file in the working folder, or a path, stays as given", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "coverage-data-dir-"));
    const env = { XDG_DATA_HOME: home };
    mkdirSync(path.join(home, "coverage"));
    writeFileSync(path.join(home, "coverage", "medicare.db"), "");
    const cwd = mkdtempSync(path.join(os.tmpdir(), "coverage-cwd-"));
    expect(await resolveNamedData("medicare", env, cwd)).toBe(
      path.join(home, "coverage", "medicare.db"),
    );
    expect(await resolveNamedData("./medicare", env, cwd)).toBe("./medicare");
    writeFileSync(path.join(cwd, "medicare"), "{}");
    expect(await resolveNamedData("medicare", env, cwd)).toBe("medicare");
    await expect(resolveNamedData("other", env, cwd)).rejects.toThrow(
      `no snapshot named 'other' in ${path.join(home, "coverage")}`,
    );
  });
});
