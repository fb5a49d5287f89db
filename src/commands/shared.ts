// Sync: node:fs/promises costs ~1 ms of every start to load, for one small file.
import { readFileSync } from "node:fs";
import { Option, type Command } from "commander";
import { createContext, type CommandContext, type RunEnvironment } from "../cli/context.js";
import type { ListedOption } from "../completion/values.js";
import { UsageError } from "../errors.js";

/** Collects a repeatable option's values. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * The root's `--format` taken by a command that writes files rather than rendering an answer
 * (`data export --format parquet`): checked against the command's own formats, then cleared so
 * the run's settings see none. `all` is what commander hands an action.
 */
export function takeFileFormat(
  all: unknown[],
  formats: readonly string[],
  fallback: string,
): string {
  const command = all[all.length - 1] as Command;
  const format = command.optsWithGlobals<{ format?: string }>().format ?? fallback;
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  if (!formats.includes(format))
    throw new UsageError(
      `--format ${format}: ${names.join(" ")} writes ${formats.join(" or ")}`,
      `Use --format ${formats.filter((f) => f !== fallback).join(" or ")}, or no --format (${fallback}).`,
    );
  for (let c: Command | null = command; c; c = c.parent) c.setOptionValue("format", undefined);
  return format;
}

/** Wraps a command action: builds its context from the parsed options and closes it after. */
export function withContext<O>(
  run: RunEnvironment,
  handler: (ctx: CommandContext, opts: O, args: unknown[]) => Promise<void>,
): (...all: unknown[]) => Promise<void> {
  return async (...all: unknown[]) => {
    // commander passes the positional arguments, then the options, then the command.
    const command = all[all.length - 1] as Command;
    const ctx = await createContext(command, run);
    try {
      await handler(ctx, all[all.length - 2] as O, all.slice(0, -2));
    } finally {
      await ctx.close();
    }
  };
}

/** Reads JSON from a file or `-` (stdin), naming the flag in errors. */
export async function readJsonInput(
  source: string,
  flag: string,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<unknown> {
  let text: string;
  try {
    if (source === "-") {
      const chunks: Buffer[] = [];
      for await (const chunk of stdin) chunks.push(chunk as Buffer);
      text = Buffer.concat(chunks).toString("utf8");
    } else text = readFileSync(source, "utf8");
  } catch (err) {
    throw new UsageError(
      `${flag}: cannot read '${source}' (${(err as NodeJS.ErrnoException).code ?? "error"})`,
      "Give a readable JSON file, or - for stdin.",
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `${flag}: '${source}' is not valid JSON (${(err as Error).message})`,
      "Fix the JSON and try again.",
    );
  }
}

/** Help text lines of real examples on the bundled data. */
export function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`;
}

/** `--fields`: the columns of table and CSV, or the keys of each json/ndjson item. */
export function fieldsOption(names: readonly string[]): Option {
  const option: ListedOption = new Option(
    "--fields <names>",
    "the columns (table, csv) or item keys (json, ndjson) to show, comma-separated; a wrong name lists the valid ones",
  ).argParser(collect);
  // What the shell completions offer (every name; the format decides which are valid).
  option.listedValues = names;
  return option;
}

/** An option whose values the shell completions offer. */
export function listedOption(flags: string, description: string, values: readonly string[]) {
  const option: ListedOption = new Option(flags, description);
  option.listedValues = values;
  return option;
}

/** `--exact-state`, the same on every command with `--state`. */
export const EXACT_STATE_FLAG = [
  "--exact-state",
  "send --state codes as typed: CA, NY, MO without their sub-state jurisdictions, NF, SF, DN, QN, UN, EM, WM without their state",
] as const;

/**
 * Refuses a `--format`/`--json` the command cannot honour (exit 2, naming what it takes); a
 * format from COVERAGE_FORMAT or the profile is a default for lists, and is let be.
 */
export function refuseFormat(ctx: CommandContext, command: string, takes: string): void {
  const { format, formatAsked } = ctx.settings;
  if (formatAsked && format !== "table")
    throw new UsageError(`${command} cannot print --format ${format}`, takes);
}
