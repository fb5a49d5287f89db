import type { Argument, Command, Option } from "commander";
import { argumentValues, optionValues, type ValueSpec } from "./values.js";

/** One option as the completion scripts and docs/commands.md see it. */
export interface OptionSpec {
  /** The flags as declared, e.g. `-q, --quiet` or `--lob <categories>`. */
  flags: string;
  short?: string;
  long?: string;
  /** Every spelling a user may type: short and long. */
  names: string[];
  description: string;
  /** `categories` for `--lob <categories>`; undefined for a flag. */
  valueName?: string;
  /** The option consumes a value (required or optional). */
  takesValue: boolean;
  /** May be given more than once (it accumulates). */
  repeatable: boolean;
  values: ValueSpec;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  values: ValueSpec;
}

/** A command with what can follow it; the root is the program itself. */
export interface CommandSpec {
  name: string;
  /** Subcommand names from the root, e.g. `["config", "get"]`; empty for the root. */
  path: string[];
  description: string;
  /** The command's own options, in declaration order (help last, as commander lists them). */
  options: OptionSpec[];
  /** Ancestors' options that are still recognised after this command (commander parses them anywhere). */
  inherited: OptionSpec[];
  arguments: ArgumentSpec[];
  commands: CommandSpec[];
}

// Shown once at the root; repeating them after every subcommand adds noise and nothing else.
const NOT_INHERITED = new Set(["--help", "--version"]);

function valueNameOf(flags: string): string | undefined {
  return /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(flags)?.[1];
}

function describeOption(option: Option): OptionSpec {
  const takesValue = option.required || option.optional;
  const valueName = takesValue ? valueNameOf(option.flags) : undefined;
  const names = [option.short, option.long].filter((n): n is string => Boolean(n));
  return {
    flags: option.flags,
    ...(option.short ? { short: option.short } : {}),
    ...(option.long ? { long: option.long } : {}),
    names,
    description: option.description,
    ...(valueName ? { valueName } : {}),
    takesValue,
    // A custom parser that is not commander's choices check is how repeatable options collect.
    repeatable: option.variadic || (takesValue && !!option.parseArg && !option.argChoices),
    values: takesValue ? optionValues(option, valueName) : { kind: "none" },
  };
}

function describeArgument(argument: Argument, command: string, siblings: string[]): ArgumentSpec {
  return {
    name: argument.name(),
    description: argument.description,
    required: argument.required,
    variadic: argument.variadic,
    values: argumentValues(argument, command, siblings),
  };
}

function describeCommand(
  command: Command,
  path: string[],
  inherited: OptionSpec[],
  siblings: string[],
): CommandSpec {
  const help = command.createHelp();
  const options = help.visibleOptions(command).map(describeOption);
  const own = new Set(options.flatMap((o) => o.names));
  const kept = inherited.filter((o) => !o.names.some((n) => own.has(n)));
  const passedOn = [...kept, ...options.filter((o) => !o.long || !NOT_INHERITED.has(o.long))];
  // commander's implicit `help` command is listed here but not in `command.commands`.
  const visible = help.visibleCommands(command);
  const children = visible.map((c) => c.name()).filter((n) => n !== "help");
  return {
    name: command.name(),
    path,
    description: command.description(),
    options,
    inherited: kept,
    arguments: command.registeredArguments.map((a) =>
      describeArgument(a, command.name(), siblings),
    ),
    commands: visible.map((c) => describeCommand(c, [...path, c.name()], passedOn, children)),
  };
}

/** Walks a commander tree into the neutral model the renderers and docs use. */
export function describeProgram(program: Command): CommandSpec {
  return describeCommand(program, [], [], []);
}

/** Every command of the tree, depth first, the root first. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.commands.flatMap(allCommands)];
}

/** Own options first, then the inherited ones it does not redefine. */
export function effectiveOptions(command: CommandSpec): OptionSpec[] {
  return [...command.options, ...command.inherited];
}
