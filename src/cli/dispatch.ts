/**
 * Which word of argv names the command a run dispatches to, read before commander is loaded:
 * `dist/cli.cjs` starts the search's own bundle (`dist/search.cjs`) when it is `search`, and
 * the command tree holds only that command (src/cli/root-program.ts). Kept free of imports,
 * so the entry that reads it stays small.
 */

/** How a root option takes its value: `none` (a switch) or `required` (`--data FILE`). */
export type FlagArity = "none" | "required" | "optional";

/**
 * The root options, as `createProgram` declares them (a unit test holds the two equal): the
 * entry reads argv with these, before the command tree exists.
 */
export const ROOT_FLAGS: Readonly<Record<string, FlagArity>> = {
  "-V": "none",
  "--version": "none",
  "--api-url": "required",
  "--sandbox": "none",
  "--local": "none",
  "--data": "required",
  "--today": "required",
  "--profile": "required",
  "--json": "none",
  "--format": "required",
  "--bom": "none",
  "--no-color": "none",
  "-q": "none",
  "--quiet": "none",
  "-v": "none",
  "--verbose": "none",
  "--timeout": "required",
};

/**
 * The command word of argv, or undefined when the answer is not plain: help asked for
 * anywhere (the root's help lists every command), a root option `arity` does not know (its
 * error and suggestions come from the whole tree), or `--` before any word. The word itself
 * may name no command (a typo): the caller checks.
 */
export function commandWord(
  argv: readonly string[],
  arity: (flag: string) => FlagArity | undefined,
): string | undefined {
  if (argv.includes("-h") || argv.includes("--help")) return undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return undefined;
    if (!arg.startsWith("-") || arg === "-") return arg;
    const [flag, inline] = arg.startsWith("--") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const takes = arity(flag!);
    if (takes === undefined) return undefined;
    // A value in the next word (`--data FILE`): skipped, as commander takes it.
    if (inline !== undefined) continue;
    if (takes === "required" || (takes === "optional" && !argv[i + 1]?.startsWith("-"))) i++;
  }
  return undefined;
}

/** Whether argv runs `search` (and nothing asks for the whole tree): see commandWord. */
export function dispatchesToSearch(argv: readonly string[]): boolean {
  return (
    commandWord(argv, (flag) =>
      Object.hasOwn(ROOT_FLAGS, flag) ? ROOT_FLAGS[flag] : undefined,
    ) === "search"
  );
}
