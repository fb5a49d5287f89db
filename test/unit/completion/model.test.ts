import { Argument, Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../../src/cli/program.js";
import {
  allCommands,
  describeProgram,
  effectiveOptions,
  type CommandSpec,
} from "../../../src/completion/model.js";
import { CONFIG_KEYS } from "../../../src/config/keys.js";
import { CodeSystem, LobCategory, STATE_CODES } from "../../../src/contract/enums.js";

const realTree = () =>
  describeProgram(createProgram({ env: {}, signal: new AbortController().signal }));

function find(root: CommandSpec, path: string[]): CommandSpec {
  const found = allCommands(root).find((c) => c.path.join(" ") === path.join(" "));
  if (!found) throw new Error(`no command ${path.join(" ")}`);
  return found;
}

function option(command: CommandSpec, name: string) {
  const found = effectiveOptions(command).find((o) => o.names.includes(name));
  if (!found) throw new Error(`no option ${name} on ${command.path.join(" ")}`);
  return found;
}

describe("describeProgram on the real tree", () => {
  const root = realTree();
  const search = find(root, ["search"]);

  it("lists every registered subcommand, our help command last", () => {
    const program = createProgram({ env: {}, signal: new AbortController().signal });
    expect(root.commands.map((c) => c.name)).toEqual(program.commands.map((c) => c.name()));
    expect(root.commands.at(-1)?.name).toBe("help");
    expect(root.commands.map((c) => c.name)).toContain("completion");
  });

  it.each([
    ["--lob", LobCategory.options, true, false],
    ["--state", STATE_CODES, true, false],
    ["--relationship", ["covers", "does-not-cover", "references"], true, false],
    ["--code", CodeSystem.options.map((s) => `${s}:`), false, true],
    ["--match", ["any", "all"], false, false],
    ["--format", ["table", "json", "ndjson", "csv"], false, false],
  ] as const)("search %s offers the contract's values", (name, values, list, partial) => {
    expect(option(search, name).values).toEqual({ kind: "choices", values, list, partial });
  });

  it("has the 7 LOB categories and the 63 state codes", () => {
    const values = (name: string) => {
      const spec = option(search, name).values;
      return spec.kind === "choices" ? spec.values : [];
    };
    expect(values("--lob")).toHaveLength(7);
    expect(values("--state")).toHaveLength(63);
    expect(values("--sort")).toContain("relevance");
  });

  it("offers files for --data and --body, nothing for free text, no value for flags", () => {
    expect(option(search, "--data").values).toEqual({ kind: "file" });
    expect(option(search, "--body").values).toEqual({ kind: "file" });
    expect(option(search, "--query").values).toEqual({ kind: "text" });
    expect(option(search, "--all")).toMatchObject({ takesValue: false, values: { kind: "none" } });
  });

  it("passes global options on to subcommands, but not --help or --version", () => {
    const inherited = search.inherited.flatMap((o) => o.names);
    expect(inherited).toEqual(expect.arrayContaining(["--api-url", "--format", "-q", "--quiet"]));
    expect(inherited).not.toContain("--version");
    expect(search.options.flatMap((o) => o.names)).toContain("--help");
    expect(inherited).not.toContain("--help");
  });

  it("completes completion's shells from the argument's choices", () => {
    expect(find(root, ["completion"]).arguments).toEqual([
      {
        name: "shell",
        description: expect.any(String),
        required: true,
        variadic: false,
        values: { kind: "choices", values: ["bash", "zsh", "fish"], list: false, partial: false },
      },
    ]);
  });

  it("completes `help` with the sibling commands", () => {
    const help = find(root, ["help"]);
    const names = root.commands.map((c) => c.name).filter((n) => n !== "help");
    expect(help.arguments[0]?.values).toMatchObject({ kind: "choices", values: names });
  });
});

describe("describeProgram on a synthetic tree", () => {
  function tree(): CommandSpec {
    const program = new Command("coverage")
      .option("--data <file>", "dataset")
      .option("--sandbox", "use the sandbox")
      .addOption(new Option("--format <format>", "format").choices(["table", "json"]));
    const config = program.command("config").description("settings");
    config
      .command("get")
      .description("print a key")
      .argument("<key>", "the key")
      .action(() => {});
    config
      .command("set")
      .argument("<key>", "the key")
      .argument("[value]", "its value")
      .action(() => {});
    program
      .command("serve")
      .option("--sandbox <mode>", "redefined with a value")
      .addArgument(new Argument("[mode]", "how").choices(["a", "b"]))
      .option("-o, --output <path>", "where")
      .option("--tag <t>", "repeatable", (v: string, p: string[] = []) => [...p, v])
      .action(() => {});
    return describeProgram(program);
  }

  it("walks nested subcommands into paths", () => {
    expect(allCommands(tree()).map((c) => c.path.join(" "))).toEqual([
      "",
      "config",
      "config get",
      "config set",
      "config help",
      "serve",
      "help",
    ]);
  });

  it("completes config keys from the config module", () => {
    const get = find(tree(), ["config", "get"]);
    expect(get.arguments[0]?.values).toEqual({
      kind: "choices",
      values: CONFIG_KEYS,
      list: false,
      partial: false,
    });
    const set = find(tree(), ["config", "set"]);
    expect(set.arguments.map((a) => a.values.kind)).toEqual(["choices", "text"]);
  });

  it("inherits options through every level", () => {
    const get = find(tree(), ["config", "get"]);
    expect(get.inherited.flatMap((o) => o.names)).toEqual(["--data", "--sandbox", "--format"]);
  });

  it("lets a command's own option replace the inherited one of the same name", () => {
    const serve = find(tree(), ["serve"]);
    const sandbox = effectiveOptions(serve).filter((o) => o.names.includes("--sandbox"));
    expect(sandbox).toHaveLength(1);
    expect(sandbox[0]).toMatchObject({ takesValue: true, valueName: "mode" });
  });

  it("reads argument choices, short options, file values and repeatable options", () => {
    const serve = find(tree(), ["serve"]);
    expect(serve.arguments[0]).toMatchObject({ required: false, values: { values: ["a", "b"] } });
    expect(option(serve, "-o")).toMatchObject({
      short: "-o",
      long: "--output",
      names: ["-o", "--output"],
      values: { kind: "file" },
      repeatable: false,
    });
    expect(option(serve, "--tag").repeatable).toBe(true);
    expect(option(serve, "--format").repeatable).toBe(false);
  });
});
