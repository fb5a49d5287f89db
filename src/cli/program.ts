import { Command, Option } from "commander";
import { registerCommands } from "../commands/index.js";
import type { RunEnvironment } from "./context.js";
import { describeRootHelp } from "./root-help.js";
import { VERSION } from "./version.js";

export { VERSION };

/** The whole command tree; also what completions and README tables are generated from. */
export function createProgram(run: RunEnvironment): Command {
  const program = new Command("coverage")
    .description(
      "Medical coverage policy lookups: which payer and Medicare policies cover, exclude or mention a code.",
    )
    .version(VERSION, "--version", "print the version")
    .helpOption("-h, --help", "show help")
    .option("--api-url <url>", "base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)")
    .option("--sandbox", "use the API sandbox (COVERAGE_SANDBOX_URL or the profile's sandbox-url)")
    .option("--local", "use the bundled local engine (the default when no API is configured)")
    .option(
      "--data <file>",
      "dataset for the local engine (env COVERAGE_DATA; default: bundled sample)",
    )
    .option("--today <date>", "pin 'today' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)")
    .option("--profile <name>", "config profile (env COVERAGE_PROFILE; default 'default')")
    .option("--json", "print the API's JSON (same as --format json)")
    .addOption(
      new Option("--format <format>", "output format").choices(["table", "json", "ndjson", "csv"]),
    )
    .option("--no-color", "no colour (NO_COLOR and FORCE_COLOR are honoured too)")
    .option("-q, --quiet", "no notices or warnings on stderr")
    .option("-v, --verbose", "log each HTTP request on stderr; stack traces on errors")
    .option("--timeout <ms>", "HTTP timeout in milliseconds (default 30000)")
    // Subcommands inherit this: their help lists the global options too.
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => (run.stdout ?? process.stdout).write(s),
      writeErr: (s) => (run.stderr ?? process.stderr).write(s),
    });
  registerCommands(program, run);
  // After the subcommands: "after" text is the root's own, not inherited.
  program.addHelpText("after", describeRootHelp());
  return program;
}
