import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { runCli } from "../../src/cli/run.js";
import { createCoverageServer } from "../../src/mcp/server.js";
import { createCommandRunner } from "../../src/mcp/stdio.js";
import type { SharedBackend } from "../../src/cli/context.js";
import { cleanEnv } from "./cli.js";

/**
 * The MCP server as `coverage [globalArgs] mcp` builds it, in this process, with the SDK's own
 * Client connected over its in-memory transport.
 */
export async function connectInProcess(
  globalArgs: string[],
  env: Record<string, string | undefined> = cleanEnv(),
): Promise<{ client: Client; close: () => Promise<void> }> {
  const backend: SharedBackend = {};
  const signal = new AbortController().signal;
  const server = createCoverageServer({
    run: createCommandRunner(runCli, globalArgs, { env, signal, backend }),
    backend,
    secrets: [env.COVERAGE_API_KEY],
    version: "test",
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await (await backend.open?.catch(() => undefined))?.transport.close?.();
    },
  };
}
