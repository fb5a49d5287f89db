import { allCommands, type CommandSpec } from "./model.js";
import type { ValueSpec } from "./values.js";

/**
 * The bash and fish scripts share one small engine: it walks the words typed so far and asks
 * data functions about them. These helpers produce that data from the model, the same for both.
 */

/** A value spec as the scripts' words: `none`, `text`, `file`, or a kind followed by values. */
export function specWords(spec: ValueSpec): string[] {
  if (spec.kind !== "choices") return [spec.kind];
  const kind = spec.list ? "list" : spec.partial ? "partial" : "choices";
  return [kind, ...spec.values];
}

/** The key the scripts look commands up by: subcommand names joined by spaces, `` for the root. */
export function pathKey(command: CommandSpec): string {
  return command.path.join(" ");
}

/**
 * Every command's own options as `path|name` keys, grouped by identical spec, in first-seen order.
 * The scripts look an option up at its command's path, then at each parent's: the nearest wins,
 * as in commander, where a parent's options are recognised after its subcommands too.
 */
export function optionGroups(root: CommandSpec): { keys: string[]; words: string[] }[] {
  const groups = new Map<string, { keys: string[]; words: string[] }>();
  for (const command of allCommands(root)) {
    for (const option of command.options) {
      const words = specWords(option.values);
      const id = words.join(" ");
      const group = groups.get(id) ?? { keys: [], words };
      group.keys.push(...option.names.map((n) => `${pathKey(command)}|${n}`));
      groups.set(id, group);
    }
  }
  return [...groups.values()];
}

/**
 * Joins items into lines of at most 100 characters, each but the last ending in `end`; `lead` is
 * what precedes the first item on its line, `indent` what precedes the others.
 */
export function wrapJoin(
  items: string[],
  separator: string,
  end: string,
  indent: string,
  lead = indent,
): string {
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    const next = line ? `${line}${separator}${item}` : item;
    const margin = (lines.length === 0 ? lead : indent).length;
    if (line && margin + next.length + end.length > 100) {
      lines.push(line + separator.trimEnd() + end);
      line = item;
    } else line = next;
  }
  lines.push(line);
  return lines.join(`\n${indent}`);
}

/**
 * The positional arguments of commands where some argument has something to offer, in order:
 * `path|index`, or `path|*` for a variadic last one (so the fixed ones must come first).
 */
export function argumentEntries(root: CommandSpec): { key: string; words: string[] }[] {
  const entries: { key: string; words: string[] }[] = [];
  for (const command of allCommands(root)) {
    if (command.arguments.every((a) => a.values.kind === "text")) continue;
    command.arguments.forEach((argument, index) => {
      const key = `${pathKey(command)}|${argument.variadic ? "*" : String(index)}`;
      entries.push({ key, words: specWords(argument.values) });
    });
  }
  return entries;
}
