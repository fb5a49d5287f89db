// cli.md, Output, "Files and folders": a folder where a file is expected is exit 2 naming it;
// `data export -o -` writes the JSON to stdout, `data build -o -` is refused; an empty file is
// "empty" in every command. Run in the test's own process.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";

const run = (args: string[]) => runInProcess(args);

const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-files-"));
const folder = path.join(dir, "a-folder");
const empty = path.join(dir, "empty.db");
let snapshot = "";

beforeAll(async () => {
  mkdirSync(folder);
  writeFileSync(empty, "");
  if (SQLITE) snapshot = await buildSnapshot(RULES_DATA, path.join(dir, "rules.db"));
});

describe("a folder where a file is expected: exit 2 naming it", () => {
  it.each([
    { what: "--data", args: () => ["--local", "--data", folder, "payers"], sqlite: false },
    { what: "data info", args: () => ["data", "info", folder], sqlite: false },
    {
      what: "data build's input",
      args: () => ["data", "build", folder, "-o", path.join(dir, "x.db")],
      sqlite: true,
    },
    {
      what: "data build's -o",
      args: () => ["data", "build", RULES_DATA, "-o", folder, "--force"],
      sqlite: true,
    },
    {
      what: "data export's -o",
      args: () => ["data", "export", snapshot, "-o", folder, "--force"],
      sqlite: true,
    },
  ])("$what", async ({ args, sqlite }) => {
    if (sqlite && !SQLITE) return;
    const r = await run(args());
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${folder} is a folder`);
    expect(r.stderr).not.toContain("EISDIR");
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe("-o -", () => {
  it.skipIf(!SQLITE)(
    "data export -o - writes the JSON dataset to stdout, and no file",
    async () => {
      const r = await run(["data", "export", snapshot, "-o", "-"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(readFileSync(RULES_DATA, "utf8")));
      expect(readdirSync(dir).filter((f) => f === "-" || f.startsWith(".-"))).toEqual([]);
    },
  );

  it.skipIf(!SQLITE)(
    "data build -o - is exit 2 (a snapshot is no stream), and no file",
    async () => {
      const r = await run(["data", "build", RULES_DATA, "-o", "-"]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("-o -");
      expect(readdirSync(dir).filter((f) => f === "-" || f.startsWith(".-"))).toEqual([]);
    },
  );
});

describe("a zero-byte file is 'empty' in every command", () => {
  it.each([
    ["--local", "--data", empty, "payers"],
    ["--local", "--data", empty, "search", "--code", "CPT:97110"],
    ["data", "info", empty],
    ["data", "export", empty, "-o", path.join(dir, "e.json")],
    ["data", "build", empty, "-o", path.join(dir, "e.db")],
  ])("%s %s %s", async (...args) => {
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${empty} is empty`);
    expect(r.stderr).not.toMatch(/SQLite|not valid JSON/);
  });
});
