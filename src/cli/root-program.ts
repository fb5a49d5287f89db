import { Command, InvalidArgumentError, Option } from "commander";
import { isOutputFormat, OUTPUT_FORMATS } from "../output/format.js";
import type { RunEnvironment } from "./context.js";
import { commandWord } from "./dispatch.js";
import { wrapHelp } from "./help-wrap.js";
import { describeRootHelp } from "./root-help.js";
import { VERSION } from "./version.js";

/**
 * The subcommands a tree can hold: every command (src/cli/program.ts, dist/bundle.cjs), or
 * `search` alone (src/cli/start-search.ts, dist/search.cjs, which dist/cli.cjs starts only for
 * a run that dispatches to it).
 */
export interface CommandSet {
  names: readonly string[];
  /** Adds every subcommand, or only `only` for a run that dispatches to it. */
  register(program: Command, run: RunEnvironment, only?: string): void;
}

/**
 * The root command and the subcommands of `commands`. Given the argv it will parse, it holds
 * only what that run can reach: see `commandToRegister`.
 */
export function createRootProgram(
  commands: CommandSet,
  run: RunEnvironment,
  argv?: readonly string[],
): Command {
  const program = new Command("coverage")
    .description(
      "Medical coverage policy lookups: which payer and Medicare policies cover, exclude or mention a code.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .option("--api-url <url>", "base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)")
    .option("--sandbox", "use the API sandbox (COVERAGE_SANDBOX_URL or the profile's sandbox-url)")
    .option("--local", "use the bundled local engine (the default when no API is configured)")
    .option(
      "--data <file>",
      "dataset for the local engine, or the name of a pulled snapshot (--data medicare) (env COVERAGE_DATA; default: bundled sample)",
    )
    .option("--today <date>", "pin 'today' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)")
    .option("--profile <name>", "config profile (env COVERAGE_PROFILE; default 'default')")
    .option("--json", "print the API's JSON (same as --format json)")
    .addOption(
      new Option("--format <format>", "output format (parquet: data export only)")
        .choices(OUTPUT_FORMATS)
        // `data export --format parquet` (a folder of tables, not a rendering of an answer) is
        // let through, unlisted (help and completions offer the four); the settings refuse it
        // for every other command.
        .argParser((value: string) => {
          if (value === "parquet" || isOutputFormat(value)) return value;
          throw new InvalidArgumentError(`Allowed choices are ${OUTPUT_FORMATS.join(", ")}.`);
        }),
    )
    .option("--bom", "CSV starts with a UTF-8 byte-order mark (for Excel on Windows)")
    .option("--no-color", "no colour (NO_COLOR and FORCE_COLOR are honoured too)")
    .option("-q, --quiet", "no notices or warnings on stderr")
    .option("-v, --verbose", "log each HTTP request on stderr; stack traces on errors")
    .option("--timeout <ms>", "HTTP timeout in milliseconds (default 30000)")
    // Subcommands inherit this: their help lists the global options too.
    // Wrap descriptions even beside a wide option column (commander gives up below 40 columns
    // left, and a terminal of 80 then breaks words).
    .configureHelp({ showGlobalOptions: true, minWidthToWrap: 20 })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // Help and --version: the hand-written notes fitted to the terminal (80 off one).
      writeOut: (s) => {
        const out = (run.stdout ?? process.stdout) as NodeJS.WriteStream;
        out.write(wrapHelp(s, (out.isTTY && out.columns) || 80));
      },
      writeErr: (s) => (run.stderr ?? process.stderr).write(s),
    });
  commands.register(program, run, argv && commandToRegister(program, argv, commands.names));
  // After the subcommands: "after" text is the root's own, not inherited. Built when the root's
  // help is printed, not by every run.
  program.addHelpText("after", () => describeRootHelp());
  return program;
}

// Commands that read the whole tree: `help NAME` finds NAME in it, `completion` prints it.
const WHOLE_TREE = new Set(["help", "completion"]);

/**
 * The one subcommand a run needs, or undefined for all of them. Adding every subcommand's
 * options to commander was ~2 ms of a 25 ms search, and a run dispatching to `search` never
 * looks at the others. The whole tree whenever the answer is not plain: help asked for
 * anywhere (the root's help lists every command), an option of the root unknown here (its
 * error and suggestions come from the tree), a word that is not a command, or a command that
 * reads the tree. Commander's own parse then sees the same argv as with every command.
 */
export function commandToRegister(
  program: Command,
  argv: readonly string[],
  names: readonly string[],
): string | undefined {
  const word = commandWord(argv, (flag) => {
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    if (!option) return undefined;
    return option.required ? "required" : option.optional ? "optional" : "none";
  });
  return word !== undefined && names.includes(word) && !WHOLE_TREE.has(word) ? word : undefined;
}
