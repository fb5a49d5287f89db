import { wrapWords } from "../domain/terminal-text.js";
import { allCommands, type ArgumentSpec, type CommandSpec, type OptionSpec } from "./model.js";
import type { ValueSpec } from "./values.js";

// Longer enums (the 63 state codes) are summarised: the table is for reading, completion lists them.
const LISTED_VALUES = 12;

function cell(s: string): string {
  return s.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function code(s: string): string {
  return `\`${s}\``;
}

function valuesCell(values: ValueSpec): string {
  if (values.kind !== "choices") return "";
  const listed =
    values.values.length > LISTED_VALUES
      ? `${values.values.slice(0, 3).map(code).join(", ")} … ${code(values.values.at(-1) ?? "")} (${values.values.length})`
      : values.values.map(code).join(", ");
  if (values.list) return `${listed}; comma-separated`;
  if (values.partial) return `${listed}, then the codes`;
  return listed;
}

function argumentUsage(argument: ArgumentSpec): string {
  const name = argument.variadic ? `${argument.name}...` : argument.name;
  return argument.required ? `<${name}>` : `[${name}]`;
}

/** A table whose values column appears only when some row has values to list. */
function table(head: string, rows: [string, string, ValueSpec][]): string[] {
  if (rows.length === 0) return [];
  const withValues = rows.some(([, , values]) => values.kind === "choices");
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const cells = ([name, description, values]: [string, string, ValueSpec]) => [
    code(cell(name)),
    cell(description),
    ...(withValues ? [cell(valuesCell(values))] : []),
  ];
  return [
    "",
    line([head, "description", ...(withValues ? ["values"] : [])]),
    line(Array.from({ length: withValues ? 3 : 2 }, () => "---")),
    ...rows.map((r) => line(cells(r))),
  ];
}

function optionRows(options: OptionSpec[]): [string, string, ValueSpec][] {
  return options.map((o) => [o.flags, o.description, o.values]);
}

function commandSection(program: string, command: CommandSpec): string[] {
  const usage = [program, ...command.path, ...command.arguments.map(argumentUsage)].join(" ");
  // Every subcommand has -h, --help; listing it each time says nothing.
  const options = command.options.filter((o) => o.long !== "--help");
  const lines = [`### ${code(usage)}`, "", command.description];
  if (command.commands.length > 0)
    lines.push("", `Subcommands: ${command.commands.map((c) => code(c.name)).join(", ")}.`);
  return [
    ...lines,
    ...table(
      "argument",
      command.arguments.map((a) => [argumentUsage(a), a.description, a.values]),
    ),
    ...table("option", optionRows(options)),
  ];
}

/** docs/commands.md's reference of every command's arguments and options, from the command tree. */
export function renderOptionsMarkdown(root: CommandSpec): string {
  const program = root.name;
  const commands = allCommands(root).filter((c) => c.path.length > 0 && c.name !== "help");
  return [
    "## Commands and options",
    "",
    `Generated from the command tree by \`npm run docs\`; \`${program} <command> --help\` shows the same.`,
    "",
    "### Global options",
    "",
    "Accepted before or after the subcommand.",
    ...table("option", optionRows(root.options)),
    ...commands.flatMap((c) => ["", ...commandSection(program, c)]),
  ].join("\n");
}

const INSTALL = `\`\`\`sh
# bash (3.2 or newer; with bash-completion the file is loaded on demand)
mkdir -p ~/.local/share/bash-completion/completions
coverage completion bash > ~/.local/share/bash-completion/completions/coverage
# ...or without bash-completion: save it anywhere and source it from ~/.bashrc
coverage completion bash > ~/.coverage.bash && echo 'source ~/.coverage.bash' >> ~/.bashrc

# zsh: a folder on $fpath, added in ~/.zshrc before compinit runs
mkdir -p ~/.zsh/completions
coverage completion zsh > ~/.zsh/completions/_coverage
echo 'fpath=(~/.zsh/completions $fpath)' >> ~/.zshrc    # then: rm -f ~/.zcompdump; exec zsh

# fish
coverage completion fish > ~/.config/fish/completions/coverage.fish
\`\`\``;

/** One phrase per option whose values complete, e.g. `` `--lob` (a comma list) ``. */
function completedValues(root: CommandSpec): string[] {
  const seen = new Map<string, string>();
  for (const command of allCommands(root))
    for (const option of command.options) {
      const v = option.values;
      if (v.kind !== "choices" || !option.long || seen.has(option.long)) continue;
      const shown = v.partial
        ? ` (${v.values
            .slice(0, 2)
            .map((x) => `\`${x}\``)
            .join(", ")}, …)`
        : "";
      seen.set(option.long, `\`${option.long}\`${shown}${v.list ? " (each item of a list)" : ""}`);
    }
  const args = allCommands(root).flatMap((c) =>
    c.arguments
      .filter((a) => a.values.kind === "choices" && c.name !== "help")
      .map((a) => `\`${c.path.join(" ")} <${a.name}>\``),
  );
  return [...seen.values(), ...new Set(args)];
}

/** Words joined into lines of at most `width` columns (prettier keeps markdown prose as is). */
function wrap(text: string, width = 98): string {
  return wrapWords(text, width);
}

/** docs/commands.md's shell completion section: what completes (from the tree) and how to install. */
export function renderCompletionMarkdown(root: CommandSpec): string {
  const values = completedValues(root);
  return [
    "## Shell completion",
    "",
    wrap(
      `\`${root.name} completion bash|zsh|fish\` prints a completion script for the commands, every flag (global and per command) and the values of ${values.slice(0, -1).join(", ")} and ${values.at(-1)}. The scripts are static (nothing runs when you press TAB) and are also checked in under \`completions/\`. This section is generated by \`npm run docs\`.`,
    ),
    "",
    INSTALL,
    "",
    wrap(
      "Open a new shell afterwards, and regenerate the files after upgrading `coverage`: a new flag completes only once the script is written again. In a checkout, `npm run completions` rewrites `completions/` and `npm run docs` this section and the options reference (a test fails when either is stale).",
    ),
  ].join("\n");
}

export const COMPLETION_START = "<!-- completion:start -->";
export const COMPLETION_END = "<!-- completion:end -->";
export const OPTIONS_START = "<!-- options:start -->";
export const OPTIONS_END = "<!-- options:end -->";

/** The text between a marker pair (undefined when the pair is absent). */
export function betweenMarkers(text: string, start: string, end: string): string | undefined {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from + start.length);
  if (from < 0 || to < 0) return undefined;
  return text.slice(from + start.length, to);
}

/** Puts `content` between the marker pair, appending the pair at the end when absent. */
export function replaceBetweenMarkers(
  text: string,
  start: string,
  end: string,
  content: string,
): string {
  const block = `${start}\n\n${content.trim()}\n\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end, from + start.length);
  if (from < 0 || to < 0) return `${text.trimEnd()}\n\n${block}\n`;
  return text.slice(0, from) + block + text.slice(to + end.length);
}
