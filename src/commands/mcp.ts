import type { Command } from "commander";
import { createContext, type RunEnvironment, type SharedBackend } from "../cli/context.js";
import type { GlobalFlags } from "../cli/settings.js";
import { VERSION } from "../cli/version.js";
import { compileSchemas } from "../contract/validation.js";
import { MCP_CLIENT_CONFIG } from "./mcp-config.js";

/** The global options of `coverage mcp` that each tool call's command runs with. */
function globalArgs(flags: GlobalFlags): string[] {
  const pairs: Array<[string, string | boolean | undefined]> = [
    ["api-url", flags.apiUrl],
    ["sandbox", flags.sandbox],
    ["local", flags.local],
    ["data", flags.data],
    ["today", flags.today],
    ["profile", flags.profile],
    ["timeout", flags.timeout],
  ];
  return pairs.flatMap(([name, v]) =>
    v === undefined || v === false ? [] : [v === true ? `--${name}` : `--${name}=${v}`],
  );
}

/** `coverage mcp`: the backend's answers as a Model Context Protocol server on stdio. */
export function registerMcp(program: Command, run: RunEnvironment): void {
  program
    .command("mcp")
    .description("serve the answers to AI assistants (a Model Context Protocol server on stdio)")
    .addHelpText("after", MCP_CLIENT_CONFIG)
    .action(async (_opts: unknown, command: Command) => {
      const flags = command.optsWithGlobals<GlobalFlags>();
      // One backend for the server's life: each tool call's command reuses it.
      const backend: SharedBackend = {};
      const ctx = await createContext(command, { ...run, backend });
      // A server parses the same schemas on every call (as `serve` does).
      compileSchemas(true);
      // The SDK (with ajv and its own zod) is its own file in the built CLI (build/plugins.ts,
      // mcpApart), which no other command reads.
      const { createCommandRunner, serveStdio } = await import("../mcp/stdio.js");
      const { runCli } = run;
      if (!runCli)
        throw new Error("coverage mcp runs its tools through runCli, which was not given");
      const log = (line: string) => (run.stderr ?? process.stderr).write(`${line}\n`);
      // Opened now, so that the first call finds it ready; a bad --data is each call's error.
      ctx.client().catch((err: Error) => log(`coverage mcp: ${err.message}`));
      const options = {
        run: createCommandRunner(runCli, globalArgs(flags), { ...run, backend }),
        backend,
        secrets: [ctx.settings.apiKey],
        version: VERSION,
      };
      try {
        await serveStdio(options, run.signal, (line) => ctx.settings.quiet || log(line));
      } finally {
        await backend.open?.then((b) => b.transport.close?.()).catch(() => undefined);
      }
    });
}
