import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, cleanEnv, runCoverage } from "../helpers/cli.js";

describe("coverage mcp over stdio (the built CLI)", () => {
  it("lists the tools and answers a call as the command's --json, stdout protocol only", async () => {
    const stderr = new PassThrough();
    let logged = "";
    stderr.on("data", (chunk: Buffer) => (logged += chunk.toString()));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "--today", "2026-11-21", "mcp"],
      env: cleanEnv() as Record<string, string>,
      cwd: ROOT,
      stderr: "pipe",
    });
    transport.stderr?.pipe(stderr);
    const client = new Client({ name: "e2e", version: "1.0.0" });
    const errors: Error[] = [];
    client.onerror = (err) => errors.push(err);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(10);
      const result = await client.callTool({
        name: "lookup_code",
        arguments: { code: "HCPCS:E0601", states: ["CA"] },
      });
      const cli = await runCoverage([
        "--local",
        "--today",
        "2026-11-21",
        "code",
        "HCPCS:E0601",
        "--state",
        "CA",
        "--json",
      ]);
      expect(cli.exitCode).toBe(0);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(JSON.parse(cli.stdout));
      const bad = await client.callTool({ name: "get_policy", arguments: { policy_id: "x/y/z" } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
    // Every stdout line was a protocol message (the client reports any other as an error).
    expect(errors).toEqual([]);
    expect(logged).toMatch(/coverage mcp: ready on stdio/);
    expect(logged).toMatch(/Using the bundled sample data/);
  });

  it("loads the MCP SDK (dist/mcp.cjs) for `coverage mcp` only, never on another command's start", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-mcp-load-"));
    const probe = path.join(dir, "probe.cjs");
    writeFileSync(
      probe,
      "process.on('exit', () => { if (Object.keys(require.cache).some((k) => /@modelcontextprotocol|[\\\\/]dist[\\\\/]mcp\\.cjs$/.test(k))) process.stderr.write('SDK-LOADED'); });\n",
    );
    const run = (args: string[]) =>
      execa(process.execPath, ["--require", probe, BIN, ...args], {
        env: cleanEnv() as Record<string, string>,
        extendEnv: false,
        reject: false,
        input: "",
        cwd: ROOT,
      });
    const search = await run(["--local", "search", "--code", "CPT:97110", "--json"]);
    expect(search.exitCode).toBe(0);
    expect(search.stderr).not.toContain("SDK-LOADED");
    // stdin at its end: the server starts, loads the SDK, and stops.
    const mcp = await run(["--local", "mcp"]);
    expect(mcp.exitCode).toBe(0);
    expect(mcp.stdout).toBe("");
    expect(mcp.stderr).toContain("SDK-LOADED");
  });
});
