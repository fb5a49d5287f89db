import { allCommands, effectiveOptions, type CommandSpec, type OptionSpec } from "./model.js";
import type { ValueSpec } from "./values.js";

function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Text inside an `_arguments` `[description]`. */
function bracketed(s: string): string {
  return s.replaceAll("\\", "\\\\").replaceAll("[", "\\[").replaceAll("]", "\\]");
}

/** Text inside an `_arguments` `:message:` field. */
function message(s: string): string {
  return s.replaceAll("\\", "\\\\").replaceAll(":", "\\:");
}

function functionName(command: CommandSpec): string {
  return ["_coverage", ...command.path].join("__");
}

/** The action part of an `_arguments` spec (`' '` means: nothing to offer, show the message). */
function action(values: ValueSpec): string {
  switch (values.kind) {
    case "none":
    case "text":
      return " ";
    case "file":
      return "_files";
    case "choices": {
      // A colon would end the action: `_arguments` reads one option's further arguments after it.
      const words = values.values.map((v) => v.replaceAll(":", "\\:")).join(" ");
      if (values.list) return `_sequence compadd - ${words}`;
      if (values.partial) return `{compadd -S "" -- ${words}}`;
      return `(${words})`;
    }
  }
}

/** One option as `_arguments` specs: short and long exclude each other unless repeatable. */
function optionSpec(option: OptionSpec): string {
  const description = `[${bracketed(option.description)}]`;
  const value = option.takesValue
    ? `:${message(option.valueName ?? "value")}:${action(option.values)}`
    : "";
  // `=` lets a long option's value follow in the same word (`--lob=medicaid`) or the next one.
  const spelled = option.names.map((n) =>
    option.takesValue ? (n.startsWith("--") ? `${n}=` : `${n}+`) : n,
  );
  const prefix = option.repeatable
    ? "*"
    : option.names.length > 1
      ? `(${option.names.join(" ")})`
      : "";
  if (spelled.length === 1) return quote(`${prefix}${spelled[0]}${description}${value}`);
  return `${quote(prefix)}{${spelled.join(",")}}${quote(`${description}${value}`)}`;
}

function argumentSpecs(command: CommandSpec): string[] {
  return command.arguments.map((argument, index) => {
    const position = argument.variadic ? "*" : String(index + 1);
    const optional = argument.required || argument.variadic ? "" : ":";
    return quote(`${position}:${optional}${message(argument.name)}:${action(argument.values)}`);
  });
}

function arguments_(specs: string[], flags: string): string[] {
  return [
    `  _arguments ${flags} \\`,
    ...specs.map((s, i) => `    ${s}${i < specs.length - 1 ? " \\" : ""}`),
  ];
}

function leafFunction(command: CommandSpec): string[] {
  const specs = [...effectiveOptions(command).map(optionSpec), ...argumentSpecs(command)];
  return [`${functionName(command)}() {`, ...arguments_(specs, "-s -S"), "}"];
}

function parentFunction(command: CommandSpec, program: string): string[] {
  const specs = [
    ...effectiveOptions(command).map(optionSpec),
    quote(": :->command"),
    quote("*:: :->argument"),
  ];
  const context = [program, ...command.path].join("-");
  // -A: options after the subcommand belong to it (its spec repeats the inherited ones).
  const call = arguments_(specs, "-C -s -S -A '-*'");
  call[call.length - 1] += " && ret=0";
  return [
    `${functionName(command)}() {`,
    "  local curcontext=$curcontext state state_descr line ret=1",
    "  typeset -A opt_args",
    ...call,
    "  case $state in",
    "    command)",
    "      local -a commands=(",
    ...command.commands.map(
      (c) => `        ${quote(`${c.name.replaceAll(":", "\\:")}:${c.description}`)}`,
    ),
    "      )",
    `      _describe -t commands ${quote(`${context} command`)} commands && ret=0`,
    "      ;;",
    "    argument)",
    `      curcontext=\${curcontext%:*:*}:${context}-$words[1]:`,
    "      case $words[1] in",
    ...command.commands.map((c) => `        ${quote(c.name)}) ${functionName(c)} && ret=0 ;;`),
    "      esac",
    "      ;;",
    "  esac",
    "  return ret",
    "}",
  ];
}

/** The zsh completion script (`#compdef`, for a folder on $fpath or `source`d after compinit). */
export function renderZsh(root: CommandSpec): string {
  const program = root.name;
  const functions = allCommands(root)
    .reverse()
    .map((c) => (c.commands.length > 0 ? parentFunction(c, program) : leafFunction(c)).join("\n"));
  return [
    `#compdef ${program}`,
    `# zsh completion for ${program}. Generated from the command tree by \`${program} completion zsh\`: do not edit.`,
    `# Install: save this file as _${program} in a folder on $fpath (before compinit runs), or add`,
    `# \`source <(${program} completion zsh)\` to ~/.zshrc after compinit.`,
    "",
    functions.join("\n\n"),
    "",
    "# Autoloaded from $fpath: complete now. Sourced: register (compinit must have run).",
    `if [[ $funcstack[1] == _${program} ]]; then`,
    `  _${program} "$@"`,
    "else",
    `  (( $+functions[compdef] )) && compdef _${program} ${program}`,
    "fi",
    "",
  ].join("\n");
}
