import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import {
  refuseEmpty,
  resolveProfileName,
  resolveSettings,
  type GlobalFlags,
} from "../cli/settings.js";
import { readProfile } from "../config/read.js";
import { UsageError } from "../errors.js";
import { examples } from "./shared.js";

interface ServeFlags extends GlobalFlags {
  port?: string;
  host?: string;
  apiKey?: string;
}

/** `coverage serve`: the local engine as the API of spec/api.md over HTTP. */
export function registerServe(program: Command, run: RunEnvironment): void {
  program
    .command("serve")
    .description("serve the local engine as the HTTP API (a stand-in for integrators and tests)")
    .option("--port <n>", "port to listen on; 0 = any free port (default 8787)")
    .option("--host <address>", "address to bind (default 127.0.0.1)")
    .option("--api-key <key>", "require this x-api-key (env COVERAGE_SERVE_KEY; default: no auth)")
    .option("--sandbox", "sandbox mode: fixed result set, 100 requests per minute per key")
    .addHelpText(
      "after",
      "\nAlso: the global --data FILE and --today DATE choose the dataset and its today; -q silences\nthe access log.\n" +
        examples([
          "coverage serve --port 0",
          "COVERAGE_SERVE_KEY=dev-key coverage serve --data my-dataset.json --sandbox",
          "COVERAGE_API_KEY=dev-key coverage --api-url http://127.0.0.1:8787 search --code CPT:97110",
        ]),
    )
    .action(async (_opts: unknown, command: Command) => {
      const flags = command.optsWithGlobals<ServeFlags>();
      refuseEmpty([
        ["--api-key", flags.apiKey],
        ["--host", flags.host],
        ["--port", flags.port],
      ]);
      if (flags.apiUrl)
        throw new UsageError(
          "serve runs the local engine: --api-url does not apply",
          "Drop --api-url; choose the data with --data FILE.",
        );
      // --sandbox here means "act as the sandbox", not "call the sandbox URL".
      const settings = resolveSettings(
        { ...flags, apiUrl: undefined, sandbox: undefined, local: true },
        run.env,
        readProfile(resolveProfileName(flags, run.env), run.env),
      );
      const stderr = run.stderr ?? process.stderr;
      // Loaded here, not at start-up: node:http is only needed by this command.
      const { parsePort, whenStopped } = await import("../server/listen.js");
      // Listening for SIGTERM before the URL is out: a script may stop us the moment it reads it.
      const { stopped, dispose } = whenStopped(run.signal);
      try {
        const { startCoverageServer } = await import("../server/start.js");
        const server = await startCoverageServer({
          data: settings.backend.kind === "local" ? settings.backend.data : undefined,
          today: settings.today,
          apiKey: flags.apiKey || run.env.COVERAGE_SERVE_KEY || undefined,
          sandbox: Boolean(flags.sandbox),
          host: flags.host ?? "127.0.0.1",
          port: parsePort(flags.port, 8787),
          log: (line) => void (settings.quiet || stderr.write(line + "\n")),
          warn: (line) => void (settings.quiet || stderr.write(`warning: ${line}\n`)),
        });
        // The only stdout line: scripts and tests read the URL from it.
        (run.stdout ?? process.stdout).write(server.url + "\n");
        await stopped;
        await server.close();
      } finally {
        dispose();
      }
    });
}
