import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { runCoverage } from "../helpers/cli.js";
import { HANDSHAKE, RawMcp, type Reply } from "../helpers/mcp-raw.js";

// Hostile clients of `coverage mcp` (findings/reliability-2.md M1, M5, M6, M7, M9): every
// message answered, the server still answering after, its memory bounded.
let server: RawMcp | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async () => {
  server = new RawMcp();
  await server.initialize();
  return server;
};
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
const textOf = (reply: Reply) =>
  ((reply.result?.content ?? []) as Array<{ text: string }>).map((c) => c.text).join("\n");

describe("coverage mcp and a client that sends anything", () => {
  it("answers invalid JSON-RPC with the spec's error replies, and goes on serving", async () => {
    const mcp = await start();
    const cases: Array<[string, number, unknown]> = [
      ["{not json", -32700, null],
      ['{"jsonrpc":"1.0","id":2,"method":"tools/list"}', -32600, 2],
      ['{"id":3,"method":"tools/list"}', -32600, 3],
      ["[1,2]", -32600, null],
      ['[{"jsonrpc":"2.0","id":4,"method":"ping"}]', -32600, null],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, null],
      ['{"jsonrpc":"2.0","id":{},"method":"ping"}', -32600, null],
      ['{"jsonrpc":"2.0","id":5}', -32600, 5],
      ["42", -32600, null],
    ];
    for (const [line, code, id] of cases) {
      mcp.send(line);
      const [reply] = await mcp.next();
      expect(reply, line).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
    }
    mcp.send(ping(6));
    expect((await mcp.next())[0]).toEqual({ jsonrpc: "2.0", id: 6, result: {} });
    expect(mcp.stderr).toMatch(/refused a line that is not JSON/);
  });

  it.each([
    ["just over the limit", 1.5],
    ["exactly 10 MiB (the SDK's own limit)", 10],
    ["over 10 MiB", 12],
  ])("answers a message %s with an error naming its id, logs it, and goes on", async (_, mb) => {
    const mcp = await start();
    const query = "a".repeat(Math.round(mb * 1024 * 1024) - 150);
    // The SDK's client writes the id last; the server finds it at either end.
    const text = JSON.stringify({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "search_policies", arguments: { query } },
      id: 7,
    });
    mcp.send(text);
    mcp.send(ping(8));
    const [refused, pong] = await mcp.next(2);
    expect(refused).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(refused!.error!.message).toMatch(/over the 1,048,576-byte limit/);
    expect(pong).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
    expect(mcp.stderr).toMatch(/refused a message of [\d,]+ bytes.*\(id 7\)/);
  });

  it("refuses 100,000 states before any work, and a call sent behind it is answered", async () => {
    const mcp = await start();
    const states = Array.from({ length: 100_000 }, () => "CA");
    mcp.send(call(9, "coverage_matrix", { code: "CPT:97110", states }));
    mcp.send(call(10, "lookup_code", { code: "HCPCS:E0601", states: ["CA"] }));
    const [refused, answered] = await mcp.next(2);
    expect(refused).toMatchObject({ id: 9, result: { isError: true } });
    expect(textOf(refused!)).toMatch(/more than the maximum of 2000 elements/);
    expect(answered).toMatchObject({ id: 10 });
    expect(answered!.result!.isError).toBeFalsy();
  });

  it("check_claim units: a billion is an answer; 1e300, a fraction or a negative a tool error naming the range", async () => {
    const mcp = await start();
    mcp.send({ jsonrpc: "2.0", id: 20, method: "tools/list" });
    const [list] = await mcp.next();
    interface Prop {
      type?: string;
      minimum?: number;
      maximum?: number;
      items?: { properties: Record<string, Prop> };
    }
    const tools = list!.result!.tools as Array<{
      name: string;
      inputSchema: { properties: Record<string, Prop> };
    }>;
    const schema = tools.find((t) => t.name === "check_claim")!.inputSchema.properties;
    expect(schema.units).toMatchObject({ type: "integer", minimum: 0, maximum: 1_000_000_000 });
    expect(schema.other_lines!.items!.properties.units!.maximum).toBe(1_000_000_000);
    const line = { procedure: "CPT:97110", diagnoses: ["ICD10CM:M54.50"], state: "CA" };
    mcp.send(call(21, "check_claim", { ...line, units: 1_000_000_000 }));
    const [billion] = await mcp.next();
    expect(billion!.result!.isError, textOf(billion!)).toBeFalsy();
    expect(textOf(billion!)).toContain("Checked 1 line");
    const bad: unknown[] = [1e300, 1.5, -1, 1_000_000_001];
    bad.forEach((units, i) => mcp.send(call(22 + i, "check_claim", { ...line, units })));
    mcp.send(
      call(30, "check_claim", { ...line, other_lines: [{ procedure: "CPT:97112", units: 1e300 }] }),
    );
    for (const reply of await mcp.next(bad.length + 1)) {
      expect(reply.result!.isError, JSON.stringify(reply)).toBe(true);
      expect(textOf(reply)).toMatch(
        /units must be a whole number from 0 to 1,000,000,000 at (other_lines\[0\]\.)?units/,
      );
    }
  });

  it("answers a ping sent behind 40 calls before most of them (calls queue, pings do not)", async () => {
    const mcp = await start();
    for (let i = 0; i < 40; i++)
      mcp.send(call(200 + i, "coverage_matrix", { code: "CPT:97110", states: ["CA", "NY"] }));
    mcp.send(ping(300));
    const order = (await mcp.next(41)).map((r) => r.id);
    expect(order.indexOf(300)).toBeLessThan(10);
  });

  it("holds a client that never reads stdout in bounded memory, then answers every call", async () => {
    const mcp = await start();
    // One call first: the backend opened and the code warm, before the peak is read.
    const search = (id: number) =>
      call(id, "search_policies", { codes: ["CPT:97110"], limit: 100 });
    for (let i = 0; i < 50; i++) mcp.send(search(50 + i));
    await mcp.next(50);
    mcp.setReading(false);
    const before = mcp.peakRssMb();
    let sent = 0;
    // Calls whose answers fill the pipe; sent until the server stops reading (our writes stop
    // draining), or 4,000 of them, which grew the server by ~100 MB before it paused its reads.
    while (sent < 4000) {
      const drained = mcp.send(search(100 + sent));
      sent++;
      if (drained) continue;
      const stalled = await Promise.race([
        once(mcp.child.stdin, "drain").then(() => false),
        sleep(3000).then(() => true),
      ]);
      if (stalled) break;
    }
    const peak = mcp.peakRssMb();
    mcp.setReading(true);
    const replies = await mcp.next(sent);
    expect(replies.every((r) => r.result && !r.result.isError)).toBe(true);
    // It stopped reading (without the fix: all 4,000 read, ~70 MB more held).
    expect(sent).toBeLessThan(4000);
    expect(peak - before, `${sent} sent: ${before} -> ${peak} MB`).toBeLessThan(30);
  });

  it("answers every request read before stdin closed, those still queued too", async () => {
    const lines = [
      ...HANDSHAKE,
      ...Array.from({ length: 200 }, (_, i) =>
        i % 2 ? ping(i + 1) : call(i + 1, "search_policies", { codes: ["CPT:97110"], limit: 100 }),
      ),
    ].map((m) => JSON.stringify(m));
    const r = await runCoverage(["mcp"], { input: `${lines.join("\n")}\n{bad\n` });
    expect(r.exitCode, r.stderr).toBe(0);
    const replies = r.stdout.split("\n").map((l) => JSON.parse(l) as Reply);
    expect(replies).toHaveLength(202);
    expect(new Set(replies.map((x) => x.id))).toEqual(
      new Set([null, ...Array.from({ length: 201 }, (_, i) => i)]),
    );
  });
});
