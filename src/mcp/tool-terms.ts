import type { ToolSpec } from "./tools.js";

// The CLI's messages name its flags and commands; an assistant calling a tool has neither, only
// the tools and their input fields (cli.md, AI assistants). Its notes and errors are rewritten
// here into those terms, and advice it cannot follow is left out.

/** The tool that does what each command does. */
const TOOL_OF_COMMAND: Record<string, string> = {
  search: "search_policies",
  policy: "get_policy",
  code: "lookup_code",
  matrix: "coverage_matrix",
  versions: "policy_versions",
  diff: "diff_policy_versions",
  updates: "recent_updates",
  check: "check_claim",
  payers: "list_payers",
  lobs: "list_lobs",
};

/** Flags whose input field is not the flag's own name (nor its plural). */
const FIELD_OF_FLAG: Record<string, string> = { diagnosis: "diagnoses" };

/** Lines the answer's text says already: its "Source:" line, its page line "(more: offset N)". */
const SAID_LINE =
  /^(Using (the bundled sample data|the local engine over|the local engine)\b|More [a-z ]+: add --offset \d+)/;

/** Sentence-level rewrites, before flags are mapped: the CLI's paging advice, a widened state. */
const REWRITES: Array<[RegExp, string]> = [
  [/add --offset (\d+)(, or --all for every page)?/g, "ask for the next page with offset $1"],
  [/ Add --exact-state to send only the codes typed\./g, ""],
  [/^--state (\S+(?:, \S+)*) also sends /, "State $1 also brings "],
  [
    /^Nationwide lines of business are left out .*$/,
    "Nationwide lines of business are left out (states match a LOB's own state): list_lobs without states lists them too.",
  ],
];

/** The field of `tool` that a flag sets, or undefined when the tool has none. */
function fieldOf(spec: ToolSpec, flag: string): string | undefined {
  const name = flag.replaceAll("-", "_");
  for (const candidate of [FIELD_OF_FLAG[flag], name, `${name}s`])
    if (candidate && candidate in spec.input) return candidate;
  return undefined;
}

/** `coverage CMD ...` in backticks as the tool that does it, or undefined when none does. */
function toolOf(command: string): string | undefined {
  return TOOL_OF_COMMAND[command.trim().split(/\s+/)[1] ?? ""];
}

const COMMAND = /`(coverage [^`]*)`/g;
const FLAG = /--([a-z][a-z0-9-]*)(=\S+)?/g;

/** One sentence in the tool's terms, or undefined when it is advice the tool cannot follow. */
function rewriteSentence(sentence: string, spec: ToolSpec, keep: boolean): string | undefined {
  let lost = false;
  let text = sentence.replace(COMMAND, (_, command: string) => {
    const tool = toolOf(command);
    if (tool === undefined) lost = true;
    return tool ?? command.split(/\s+/).slice(1, 2).join("");
  });
  text = text.replace(FLAG, (_, flag: string, value: string | undefined) => {
    const field = fieldOf(spec, flag);
    if (field === undefined) lost = true;
    return `${field ?? flag}${value ? ` ${value.slice(1)}` : ""}`;
  });
  return lost && !keep ? undefined : text;
}

/**
 * A CLI message (a note or an error, several lines) in the tool's terms: flags become its input
 * fields, commands the tools that do them; a sentence of advice naming a flag or command no tool
 * has is left out (the first line, what went wrong, is always kept).
 */
export function inToolTerms(text: string, spec: ToolSpec): string {
  const lines: string[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (SAID_LINE.test(line)) continue;
    let rewritten = line;
    for (const [pattern, replacement] of REWRITES)
      rewritten = rewritten.replace(pattern, replacement);
    // Sentences end at ". " or "; " (ids and codes hold no such pair).
    const sentences = rewritten.split(/(?<=[.;?!]) +/);
    const kept = sentences
      .map((s, i) => rewriteSentence(s, spec, index === 0 && i === 0))
      .filter((s): s is string => s !== undefined);
    if (kept.length) lines.push(kept.join(" ").replace(/;$/, "."));
  }
  return lines.join("\n");
}
