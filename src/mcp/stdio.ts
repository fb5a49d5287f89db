import { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createCoverageServer, type CommandRun, type McpOptions } from "./server.js";

/** A stream that keeps what is written to it, as text. */
class Capture extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

interface RunBase {
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/**
 * What runs a tool's command: `runCli`, the CLI's own entry, in this process with the server's
 * global options (`--data`...) first and its output captured, over the shared backend.
 */
export function createCommandRunner<R extends RunBase>(
  runCli: (
    argv: string[],
    run: R & { stdin: Readable; stdout: Writable; stderr: Writable },
  ) => Promise<number>,
  globalArgs: readonly string[],
  run: R,
): (argv: string[], input?: string) => Promise<CommandRun> {
  // What is captured goes to an assistant: no colour codes.
  const env = { ...run.env, NO_COLOR: "1", FORCE_COLOR: undefined };
  return async (argv, input) => {
    const stdout = new Capture();
    const stderr = new Capture();
    // stdin is the protocol's: a command reads only what a tool hands it (check_claim's lines).
    const stdin = Readable.from(input === undefined ? [] : [Buffer.from(input)]);
    const code = await runCli([...globalArgs, ...argv], { ...run, env, stdin, stdout, stderr });
    return { code, stdout: stdout.text, stderr: stderr.text };
  };
}

/**
 * Serves the tools on stdin/stdout until the client closes stdin or `signal` aborts. stdout
 * carries protocol messages only; `log` (stderr) the rest.
 */
export async function serveStdio(
  options: McpOptions,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<void> {
  const server = createCoverageServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const close = () => void server.close();
  // The client went away: its end of stdin closes, or stdout breaks (EPIPE).
  process.stdin.once("end", close);
  process.stdout.once("error", close);
  signal.addEventListener("abort", close, { once: true });
  await server.connect(transport);
  log("coverage mcp: ready on stdio");
  await closed;
}
