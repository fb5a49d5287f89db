import { describe, expect, it } from "vitest";
import { commandToRegister, createProgram } from "../../../src/cli/program.js";
import { COMMAND_NAMES } from "../../../src/commands/index.js";
import { dispatchesToSearch, ROOT_FLAGS } from "../../../src/cli/dispatch.js";

const run = { env: {}, signal: new AbortController().signal };

describe("the command tree of one run", () => {
  it.each([
    [["search", "--code", "CPT:97110"], "search"],
    [["--local", "search"], "search"],
    [["--data", "search", "policy", "x"], "policy"],
    [["--data=search", "lobs"], "lobs"],
    [["--format", "csv", "--no-color", "-q", "payers"], "payers"],
    [["data", "build", "in.json"], "data"],
    [["config", "get", "format"], "config"],
    [["search", "--help"], undefined],
    [["search", "-h"], undefined],
    [["--help", "search"], undefined],
    [["help", "search"], undefined],
    [["completion", "bash"], undefined],
    [["bogus"], undefined],
    [["serch"], undefined],
    [["--bogus", "search"], undefined],
    [["-qv", "search"], undefined],
    [["--", "search"], undefined],
    [["--data"], undefined],
    [[], undefined],
  ])("%j -> %s", (argv, expected) => {
    expect(commandToRegister(createProgram(run), argv)).toBe(expected);
  });

  it("holds that command alone (no help: help anywhere asks for them all); without argv, every command", () => {
    const names = (argv?: string[]) => createProgram(run, argv).commands.map((c) => c.name());
    expect(names(["--local", "search"])).toEqual(["search"]);
    expect(names(["search", "--help"])).toEqual([...COMMAND_NAMES, "help"]);
    expect(names()).toEqual([...COMMAND_NAMES, "help"]);
  });

  it("a command holds the same options either way", () => {
    for (const name of COMMAND_NAMES) {
      const alone = createProgram(run, [name]).commands.find((c) => c.name() === name)!;
      const inTree = createProgram(run).commands.find((c) => c.name() === name)!;
      expect(alone.helpInformation()).toBe(inTree.helpInformation());
    }
  });
});

describe("the search's own bundle (dist/search.cjs), chosen before commander loads", () => {
  it("knows the root options as the tree declares them (src/cli/dispatch.ts, ROOT_FLAGS)", () => {
    const declared: Record<string, string> = {};
    for (const o of createProgram(run).options)
      for (const flag of [o.short, o.long].filter((f): f is string => f !== undefined))
        declared[flag] = o.required ? "required" : o.optional ? "optional" : "none";
    expect(ROOT_FLAGS).toEqual(declared);
  });

  it.each([
    [["search", "--code", "CPT:97110"], true],
    [["--local", "search"], true],
    [["--data", "search", "search"], true],
    [["--data", "search", "policy", "x"], false],
    [["--data=x.db", "--format", "csv", "-q", "search", "--state", "CA"], true],
    [["search", "--help"], false],
    [["search", "-h"], false],
    [["help", "search"], false],
    [["serch"], false],
    [["--bogus", "search"], false],
    [["-qv", "search"], false],
    [["--", "search"], false],
    [["payers"], false],
    [[], false],
  ])("%j -> %s, as the whole tree decides it", (argv, expected) => {
    expect(dispatchesToSearch(argv)).toBe(expected);
    expect(commandToRegister(createProgram(run), argv) === "search").toBe(expected);
  });
});
