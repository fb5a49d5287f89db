import { PassThrough } from "node:stream";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATE_CODES } from "../../../src/contract/index.js";
import { boundResultText, cutText } from "../../../src/mcp/bound-text.js";
import { TEXT_LIMIT } from "../../../src/mcp/limits.js";
import { boundText } from "../../../src/mcp/server.js";
import { BoundedStdioTransport, findLineId } from "../../../src/mcp/transport.js";
import { connectInProcess } from "../../helpers/mcp.js";

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, close } = await connectInProcess(["--today", "2026-11-21"]));
});
afterAll(() => close());

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;
const textOf = (r: ToolResult) => r.content.map((c) => c.text).join("\n");

describe("coverage mcp: input limits, checked before any work", () => {
  const code = "CPT:97110";
  it.each<[string, string, Record<string, unknown>, RegExp]>([
    ["states", "coverage_matrix", { code, states: [...STATE_CODES, "CA"] }, /at states/],
    ["codes", "search_policies", { codes: Array(101).fill(code) }, /at codes/],
    [
      "codes in one string",
      "recent_updates",
      { codes: [`CPT:${Array.from({ length: 101 }, (_, i) => 97000 + i).join(",")}`] },
      /at most 100 codes in all/,
    ],
    ["query", "search_policies", { query: "a".repeat(4001) }, /<=4000 characters at query/],
    ["payers", "lookup_code", { code, payers: Array(101).fill("CMS") }, /at payers/],
    ["policy_id", "get_policy", { policy_id: "a/".repeat(101) }, /at policy_id/],
    [
      "diagnoses",
      "check_claim",
      { procedure: code, diagnoses: Array(101).fill("M54.50") },
      /at diagnoses/,
    ],
    ["offset", "list_payers", { offset: 1_000_001 }, /at offset/],
    [
      "elements",
      "coverage_matrix",
      { code, states: Array(100_000).fill("CA") },
      /maximum of 2000 elements/,
    ],
  ])("refuses too many or too long %s, naming the field", async (_, tool, args, message) => {
    const result = await call(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });

  it("answers the largest input it accepts: every state", async () => {
    const result = await call("coverage_matrix", { code, states: [...STATE_CODES] });
    expect(result.isError).toBeFalsy();
  });
});

describe("coverage mcp: result text at most 64 KB, echoes of the input included", () => {
  it("bounds the notes above the body (a warning that quotes the query)", () => {
    const note = `warning: nothing matched the words "${"a".repeat(9_500_000)}"`;
    const text = boundText(["Source: test.", note, note], ["body"]);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(text).toMatch(/^Source: test\.\nwarning: nothing matched the words "a+ \[\.\.\. cut\]/);
    expect(text).toMatch(/\n\nbody$/);
  });

  it("cuts any result's text on the way out, whole characters only", () => {
    const result = boundResultText({
      content: [
        { type: "text", text: "é".repeat(50_000) },
        { type: "text", text: "b".repeat(50_000) },
      ],
      isError: true,
    });
    const texts = result.content.map((c) => c.text);
    expect(Buffer.byteLength(texts.join(""))).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(texts[0]).toMatch(
      /^é+\n\[\.\.\. text cut at 64 KB; the structured answer has it all\]$/,
    );
    expect(texts[1]).toBe("");
    const small = { content: [{ type: "text", text: "ok" }] };
    expect(boundResultText(small)).toBe(small);
    expect(cutText("ab", 10)).toBe("ab");
  });
});

describe("coverage mcp: the stdio transport", () => {
  it.each<[string, string, string | number | null]>([
    ['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"', "", 7],
    ['{"method":"tools/call","params":{"a":"', 'aaa"}},"jsonrpc":"2.0","id":"k-1"}', "k-1"],
    ['{"jsonrpc":"2.0","method":"tools/call","params":{"id":3,"q":"', 'aaa"}}', null],
    ["garbage", "garbage", null],
  ])("finds the id of a message too long to read: %s", (head, tail, id) => {
    expect(findLineId(head, tail)).toEqual(id);
  });

  it("runs a few calls at once, answers a ping behind them at once, and stops reading when too many wait", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const logged: string[] = [];
    const transport = new BoundedStdioTransport(input, output, (l) => logged.push(l), {
      maxMessageBytes: 250,
      maxRunning: 2,
      maxWaiting: 2,
    });
    const got: JSONRPCMessage[] = [];
    transport.onmessage = (m) => got.push(m);
    await transport.start();
    const call = (id: number) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t" } });
    const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
    const ids = () => got.map((m) => (m as { id: number }).id);
    const tick = () => new Promise((r) => setImmediate(r));
    // One chunk: calls 1-3, a ping, call 5 (the queue is full: reading stops), then a line
    // over the limit cut across two chunks.
    input.write(
      `${call(1)}\n${call(2)}\n${call(3)}\n${ping(4)}\n${call(5)}\n{"jsonrpc":"2.0","id":6,"x":"${"a".repeat(150)}`,
    );
    input.write(`${"a".repeat(150)}"}\n`);
    await tick();
    expect(ids()).toEqual([1, 2, 4]);
    expect(input.isPaused()).toBe(true);
    await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    await tick();
    await tick();
    // Call 3 runs; the queue has room again: the long line behind it is read and refused.
    expect(ids()).toEqual([1, 2, 4, 3]);
    const replies = output
      .read()
      .toString()
      .trim()
      .split("\n")
      .map((l: string) => JSON.parse(l) as Record<string, unknown>);
    expect(replies).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      {
        jsonrpc: "2.0",
        id: 6,
        error: {
          code: -32600,
          message: expect.stringMatching(/of 331 bytes, over the 250-byte limit/),
        },
      },
    ]);
    expect(logged.join("\n")).toMatch(/refused a message of 331 bytes.*\(id 6\)/);
    // A call cancelled while it waits is never run.
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } })}\n`,
    );
    await transport.send({ jsonrpc: "2.0", id: 2, result: {} });
    await tick();
    expect(ids()).not.toContain(5);
    await transport.close();
  });
});
