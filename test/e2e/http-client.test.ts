import { describe, expect, it, type TestContext } from "vitest";
import { runCoverage } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { closedPort, envelope, json, startScripted, type Scripted } from "../helpers/server.js";

const KEY = "sk-test-SECRET-4242";
// Backoff of 1 ms: the retry paths run without real waiting (Retry-After values are tiny too).
const ENV = { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1" };
const EMPTY = envelope([], 20, 0, false);
const STACK = /\n\s+at /;

/** A scripted server closed when the test ends (tests run concurrently, each with its own). */
async function serve(
  t: TestContext,
  handler: Parameters<typeof startScripted>[0],
): Promise<Scripted> {
  const s = await startScripted(handler);
  t.onTestFinished(() => s.close());
  return s;
}

function search(server: Scripted, extra: string[] = [], env: Record<string, string> = {}) {
  return runInProcess(
    ["--api-url", server.url, "search", "--code", "CPT:97110", "--json", ...extra],
    {
      env: { ...ENV, ...env },
    },
  );
}

describe.concurrent("HTTP backend: the request on the wire", () => {
  it("POSTs exactly the body built from the flags, with the key header and JSON content type", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const r = await search(s, ["--state", "ca"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests).toHaveLength(1);
    const [req] = s.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/v1/policies/filter");
    expect(req!.body).toBe(
      '{"policies":{"code_refs":{"refs":[{"code_system":"CPT","codes":["97110"]}]},"states":["CA","NF","SF"]}}',
    );
    expect(req!.headers["x-api-key"]).toBe(KEY);
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.stdout)).toEqual(EMPTY);
    expect(r.stderr).toContain("--state CA also sends NF (Northern California), SF");
  });

  it("--exact-state puts the states on the wire as typed", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const r = await search(s, ["--state", "ca", "--exact-state"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests[0]!.body).toBe(
      '{"policies":{"code_refs":{"refs":[{"code_system":"CPT","codes":["97110"]}]},"states":["CA"]}}',
    );
  });

  it("keeps the base URL's path prefix", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const r = await runInProcess(["--api-url", `${s.url}/api/`, "search", "--json"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests[0]!.url).toBe("/api/v1/policies/filter");
  });

  it("keeps unknown extra fields of the response in --json output", async (t) => {
    const body = { ...EMPTY, server_build: "x1", data: [] };
    const s = await serve(t, (_req, res) => json(res, 200, body));
    const r = await search(s);
    expect(JSON.parse(r.stdout)).toEqual(body);
  });

  it("sends array query parameters as repeated keys (payers --lob)", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const r = await runInProcess(
      ["--api-url", s.url, "payers", "--lob", "commercial,medicaid", "--json"],
      { env: ENV },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests[0]!.url).toBe("/v1/payers?lobs=commercial&lobs=medicaid");
  });

  it("keeps the policy id's slashes in the path, each segment encoded", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 404, { detail: "Policy not found" }));
    const r = await runInProcess(["--api-url", s.url, "policy", "cms-lcd/L 1/2026-01-01"], {
      env: ENV,
    });
    expect(s.requests[0]!.url).toBe("/v1/policies/cms-lcd/L%201/2026-01-01");
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stderr).toContain("Policy not found");
  });

  it("a missing key is an auth error (exit 3) before any request", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const r = await runInProcess(["--api-url", s.url, "search", "--json"], {
      env: { COVERAGE_RETRY_BASE_MS: "1" },
    });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain("no API key is set");
    expect(r.stderr).toContain("COVERAGE_API_KEY");
    expect(s.requests).toHaveLength(0);
  });

  it("health checks go without a key", async (t) => {
    const s = await serve(t, (req, res) =>
      json(res, 200, { status: req.url === "/ready" ? "ready" : "ok" }),
    );
    const r = await runInProcess(["--api-url", s.url, "health", "--json"], {
      env: { COVERAGE_RETRY_BASE_MS: "1" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests.map((q) => q.url)).toEqual(["/health", "/ready"]);
    expect(s.requests[0]!.headers["x-api-key"]).toBeUndefined();
  });
});

describe.concurrent("HTTP backend: retries", () => {
  it("retries 429 after Retry-After in seconds, telling the user it waits", async (t) => {
    const s = await serve(t, (_req, res, n) =>
      n === 0
        ? json(res, 429, { detail: "slow down" }, { "retry-after": "1" })
        : json(res, 200, EMPTY),
    );
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]!.body).toBe(s.requests[0]!.body);
    expect(r.stderr).toMatch(/rate limiting \(429\); retrying POST .* in 1\.0 s \(retry 1 of 3\)/);
  });

  it("reads Retry-After as an HTTP date (a past date: no wait, not the backoff)", async (t) => {
    const s = await serve(t, (_req, res, n) =>
      n === 0
        ? json(res, 429, {}, { "retry-after": new Date(Date.now() - 5000).toUTCString() })
        : json(res, 200, EMPTY),
    );
    // A backoff base of 40 s would show up as "in 20.0 s" or more if the date were not read.
    const r = await search(s, [], { COVERAGE_RETRY_BASE_MS: "40000" });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("in 0 ms (retry 1 of 3)");
  });

  it("retries POST on 502, 503 and 504, then succeeds", async (t) => {
    const statuses = [502, 503, 504];
    const s = await serve(t, (_req, res, n) =>
      n < 3 ? json(res, statuses[n]!, { detail: "busy" }) : json(res, 200, EMPTY),
    );
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests.map((q) => q.method)).toEqual(["POST", "POST", "POST", "POST"]);
    expect(r.stderr).toContain("the API answered 502");
    expect(r.stderr).toContain("(retry 3 of 3)");
    expect(JSON.parse(r.stdout)).toEqual(EMPTY);
  });

  it("429 after the 3 retries: exit 5", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 429, {}, { "retry-after": "0" }));
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(5);
    expect(s.requests).toHaveLength(4);
    expect(r.stderr).toContain("rate limited");
    expect(r.stdout).toBe("");
  });

  it("5xx after the 3 retries: exit 1", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 503, { detail: "maintenance" }));
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(s.requests).toHaveLength(4);
    expect(r.stderr).toContain("HTTP 503");
    expect(r.stderr).not.toMatch(STACK);
  });

  it("does not retry other statuses (500)", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 500, { detail: "boom" }));
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(s.requests).toHaveLength(1);
  });

  it("retries a reset connection, then succeeds", async (t) => {
    const s = await serve(t, (req, res, n) =>
      n < 2 ? req.socket.destroy() : json(res, 200, EMPTY),
    );
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests).toHaveLength(3);
    expect(r.stderr).toMatch(/was reset .*retrying/);
  });

  it("a connection reset every time: exit 1 naming the URL, no stack trace", async (t) => {
    const s = await serve(t, (req) => req.socket.destroy());
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(s.requests).toHaveLength(4);
    expect(r.stderr).toContain(`the connection to ${s.url} was closed before an answer`);
    expect(r.stderr).toContain("after 3 retries");
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe.concurrent("HTTP backend: error statuses and malformed answers", () => {
  it.for([
    ["not JSON", "<html>oops</html>", "not JSON"],
    ["an empty body", "", "empty body"],
  ])("a 200 with %s: exit 1, a clear message, no stack trace", async ([, body, says], t) => {
    const s = await serve(t, (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(body);
    });
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`malformed response from POST ${s.url}/v1/policies/filter: ${says}`);
    expect(r.stderr).not.toMatch(STACK);
  });

  it("a 200 with 130,000 bad codes (zod's issue list would overflow the stack): exit 1", async (t) => {
    const policy = {
      policy_id: "a/b/2020-01-01",
      policy_number: "1",
      title: "t",
      effective_from_date: "2020-01-01",
      effective_to_date: null,
      file_url: "u",
      file_type: "pdf",
      listing_url: "l",
      summary: null,
      code_groups: [
        {
          code_system: "CPT",
          relationship: "covered",
          category: null,
          codes: Array.from({ length: 130_000 }, () => 0),
        },
      ],
    };
    const s = await serve(t, (_req, res) => json(res, 200, envelope([policy], 20, 0, false)));
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain("malformed response");
    expect(r.stderr).not.toMatch(STACK);
  });

  it("a 200 of the wrong shape: exit 1 naming the bad fields", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 200, { data: "nope", limit: 20 }));
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain("malformed response");
    expect(r.stderr).toContain("data:");
    expect(r.stderr).not.toMatch(STACK);
  });

  it.for([
    [401, "Invalid API key"],
    [403, "Not authenticated"],
  ] as const)("%i: exit 3 with the server's detail", async ([status, detail], t) => {
    const s = await serve(t, (_req, res) => json(res, status, { detail }));
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain(detail);
    expect(s.requests).toHaveLength(1);
  });

  it("404: exit 4", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 404, { detail: "Policy not found" }));
    const r = await runInProcess(["--api-url", s.url, "policy", "a/b/2026-01-01"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stderr).toContain("Policy not found");
  });

  it("422: exit 2 with each detail item as `loc: msg`", async (t) => {
    const detail = [
      { loc: ["body", "limit"], msg: "Input should be less than or equal to 100", type: "x" },
      {
        loc: ["body", "policies", "states", 0],
        msg: "Input should be one of AL, AK",
        type: "enum",
      },
    ];
    const s = await serve(t, (_req, res) => json(res, 422, { detail }));
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("body.limit: Input should be less than or equal to 100");
    expect(r.stderr).toContain("body.policies.states.0: Input should be one of AL, AK");
  });

  it("a redirect is reported, not followed (the key stays with the API's origin)", async (t) => {
    const other = await serve(t, (_req, res) => json(res, 200, EMPTY));
    const s = await serve(t, (_req, res) => {
      res.writeHead(307, { location: `${other.url}/v1/policies/filter` });
      res.end();
    });
    const r = await search(s);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain("answered a redirect (307");
    expect(other.requests).toHaveLength(0);
  });

  it("connection refused: exit 1 naming the URL and --api-url", async () => {
    const port = await closedPort();
    const r = await runInProcess(["--api-url", `http://127.0.0.1:${port}`, "search", "--json"], {
      env: ENV,
    });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot connect to http://127.0.0.1:${port} (connection refused)`);
    expect(r.stderr).toContain("--api-url");
    expect(r.stderr).not.toMatch(STACK);
  });

  it("a server that never answers: --timeout 200 gives a clear timeout error (exit 1)", async (t) => {
    const s = await serve(t, () => {
      // Never answer.
    });
    const r = await runInProcess(
      ["--api-url", s.url, "--timeout", "200", "--verbose", "search", "--json"],
      { env: ENV },
    );
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`POST ${s.url}/v1/policies/filter timed out after 200 ms`);
    expect(r.stderr).toContain("--timeout");
    // Timeouts are not retried: one attempt, by the client's own account. The server's count
    // cannot say so on a loaded machine: the 200 ms may run out before the request is written
    // (or before this process reads it), so it sees one request or none, never more.
    expect(r.stderr).toMatch(
      new RegExp(`^POST ${s.url}/v1/policies/filter timeout \\d+ ms 0 retries`, "m"),
    );
    expect(s.requests.length).toBeLessThanOrEqual(1);
  });

  it("a body that stalls midway also times out", async (t) => {
    const s = await serve(t, (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data": [');
    });
    const r = await runInProcess(["--api-url", s.url, "--timeout", "300", "search", "--json"], {
      env: ENV,
    });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain("timed out after 300 ms");
  });

  it("Ctrl-C while waiting for an answer: exit 130, no stack trace", async (t) => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const s = await serve(t, () => received());
    const run = runCoverage(["--api-url", s.url, "search", "--json"], { env: ENV });
    await arrived;
    run.kill("SIGINT");
    const r = await run;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toMatch(STACK);
  });

  it("Ctrl-C during a retry wait: exit 130", async (t) => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const s = await serve(t, (_req, res) => {
      json(res, 429, {}, { "retry-after": "30" });
      received();
    });
    const run = runCoverage(["--api-url", s.url, "search", "--json"], { env: ENV });
    await arrived;
    run.kill("SIGINT");
    const r = await run;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(s.requests).toHaveLength(1);
  });
});
