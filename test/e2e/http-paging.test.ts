import { describe, expect, it, type TestContext } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import { envelope, json, startScripted, type ScriptedHandler } from "../helpers/server.js";

const ENV = { COVERAGE_API_KEY: "k-paging", COVERAGE_RETRY_BASE_MS: "1" };

function policy(i: number) {
  const id = `p/${String(i).padStart(3, "0")}/2025-01-01`;
  return {
    policy_id: id,
    policy_number: `N-${i}`,
    title: `Policy ${i}`,
    effective_from_date: "2025-01-01",
    effective_to_date: null,
    file_url: `https://example.org/${i}.pdf`,
    file_type: "pdf",
    listing_url: "https://example.org/",
    summary: null,
    score: null,
  };
}

const ALL = Array.from({ length: 12 }, (_, i) => policy(i));
const PAYERS = Array.from({ length: 7 }, (_, i) => ({
  payer_id: `P${i}`,
  display_name: `Payer ${i}`,
}));

/** The asked offset and limit of a filter POST or a GET's query. */
function asked(url: string, body: string): { offset: number; limit: number } {
  if (body) {
    const b = JSON.parse(body) as { offset?: number; limit?: number };
    return { offset: b.offset ?? 0, limit: b.limit ?? 20 };
  }
  const q = new URL(url, "http://x").searchParams;
  return { offset: Number(q.get("offset") ?? 0), limit: Number(q.get("limit") ?? 20) };
}

/** Pages of at most `cap` items whatever the limit (the spec's "at most 20" page). */
function capped<T>(items: T[], cap: number): ScriptedHandler {
  return (req, res, _n, body) => {
    const { offset, limit } = asked(req.url ?? "", body);
    const page = items.slice(offset, offset + Math.min(limit, cap));
    json(res, 200, envelope(page, limit, offset, offset + page.length < items.length));
  };
}

async function serve(t: TestContext, handler: ScriptedHandler) {
  const s = await startScripted(handler);
  t.onTestFinished(() => s.close());
  return s;
}

const ids = (stdout: string) =>
  (JSON.parse(stdout) as { data: Array<{ policy_id: string }> }).data.map((p) => p.policy_id);

describe.concurrent("--all against real servers", () => {
  it("a server capping pages below the limit: advances by the items received, no gaps", async (t) => {
    const s = await serve(t, capped(ALL, 5));
    const r = await runInProcess(
      ["--api-url", s.url, "search", "--all", "--limit", "100", "--json"],
      { env: ENV },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(ALL.map((p) => p.policy_id));
    expect(JSON.parse(r.stdout)).toMatchObject({ offset: 0, has_more: false });
    expect(s.requests.map((q) => asked(q.url, q.body).offset)).toEqual([0, 5, 10]);
    expect(r.stderr).toBe("");
  });

  it("ndjson streams every item once", async (t) => {
    const s = await serve(t, capped(ALL, 5));
    const r = await runInProcess(["--api-url", s.url, "search", "--all", "--format", "ndjson"], {
      env: ENV,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).policy_id);
    expect(lines).toEqual(ALL.map((p) => p.policy_id));
  });

  it("a server that ignores offset: stops with a warning, no duplicate items", async (t) => {
    const s = await serve(t, (_req, res) => json(res, 200, envelope(ALL.slice(0, 5), 20, 0, true)));
    const r = await runInProcess(["--api-url", s.url, "search", "--all", "--json"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    const got = ids(r.stdout);
    expect(got).toEqual(ALL.slice(0, 5).map((p) => p.policy_id));
    expect(new Set(got).size).toBe(got.length);
    expect(r.stderr).toContain("warning: the server answered offset 0 when asked for 5");
    expect(s.requests).toHaveLength(2);
  });

  it("a server that ignores offset but echoes it: stops at the repeated page", async (t) => {
    const s = await serve(t, (req, res, _n, body) => {
      const { offset, limit } = asked(req.url ?? "", body);
      json(res, 200, envelope(ALL.slice(0, 5), limit, offset, true));
    });
    const r = await runInProcess(["--api-url", s.url, "search", "--all", "--json"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(ALL.slice(0, 5).map((p) => p.policy_id));
    expect(r.stderr).toContain(
      "warning: the server sent the same items at offset 5 as at offset 0; it ignores paging",
    );
    expect(s.requests).toHaveLength(2);
  });

  it("an empty page that claims more: stops with a warning", async (t) => {
    const s = await serve(t, (req, res, _n, body) => {
      const { offset } = asked(req.url ?? "", body);
      json(res, 200, envelope(offset === 0 ? ALL.slice(0, 3) : [], 20, offset, true));
    });
    const r = await runInProcess(["--api-url", s.url, "search", "--all", "--json"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ids(r.stdout)).toHaveLength(3);
    expect(r.stderr).toContain("empty page at offset 3");
  });

  it("GET lists page with the offset query parameter (payers --all, capped at 3)", async (t) => {
    const s = await serve(t, capped(PAYERS, 3));
    const r = await runInProcess(["--api-url", s.url, "payers", "--all", "--json"], { env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual(PAYERS);
    expect(s.requests.map((q) => new URL(q.url, "http://x").searchParams.get("offset"))).toEqual([
      null,
      "3",
      "6",
    ]);
  });
});

describe.concurrent("--all against a server that never ends (has_more always true)", () => {
  /** Fresh items at every offset, forever: nothing repeats, so only a ceiling stops it. */
  const endless: ScriptedHandler = (req, res, _n, body) => {
    const { offset, limit } = asked(req.url ?? "", body);
    json(res, 200, envelope(endlessPage(offset, limit), limit, offset, true));
  };
  const endlessPage = (offset: number, limit: number) =>
    Array.from({ length: limit }, (_, i) => policy(offset + i));
  // A byte ceiling that the first two pages of 20 fit under and the third crosses.
  const twoPages =
    JSON.stringify(endlessPage(0, 20)).length + JSON.stringify(endlessPage(20, 20)).length;

  it.for([
    { format: "json", env: { COVERAGE_ALL_MAX_ITEMS: "50" }, what: "50 items", pages: 3 },
    { format: "table", env: { COVERAGE_ALL_MAX_ITEMS: "50" }, what: "50 items", pages: 3 },
    {
      format: "json",
      env: { COVERAGE_ALL_MAX_BYTES: String(twoPages) },
      what: `${twoPages.toLocaleString("en-US")} bytes of JSON`,
      pages: 3,
    },
  ])(
    "--format $format stops past the ceiling ($what): exit 1, suggests ndjson, nothing on stdout",
    async ({ format, env, what, pages }, t) => {
      const s = await serve(t, endless);
      const r = await runInProcess(
        ["--api-url", s.url, "search", "--all", "--limit", "20", "--format", format],
        { env: { ...ENV, ...env } },
      );
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `error: --all stopped: more than ${what} would be held in memory for --format ${format}`,
      );
      expect(r.stderr).toContain("Use --format ndjson");
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe("");
      // Stopped at the page that crossed the ceiling, not later.
      expect(s.requests).toHaveLength(pages);
    },
  );

  it("ndjson and csv stream past the ceiling (it bounds only what is held)", async (t) => {
    const s = await serve(t, capped(ALL, 5));
    for (const format of ["ndjson", "csv"]) {
      const r = await runInProcess(["--api-url", s.url, "search", "--all", "--format", format], {
        env: { ...ENV, COVERAGE_ALL_MAX_ITEMS: "4" },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout.trim().split("\n")).toHaveLength(format === "csv" ? 13 : 12);
    }
  });

  it("exactly the ceiling is allowed", async (t) => {
    const s = await serve(t, capped(ALL, 5));
    const r = await runInProcess(["--api-url", s.url, "search", "--all", "--json"], {
      env: { ...ENV, COVERAGE_ALL_MAX_ITEMS: "12" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ids(r.stdout)).toHaveLength(12);
  });

  it("a bad ceiling is a usage error naming the variable (exit 2)", async () => {
    const r = await runInProcess(["search", "--all", "--json"], {
      env: { COVERAGE_ALL_MAX_ITEMS: "lots" },
    });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("COVERAGE_ALL_MAX_ITEMS: 'lots' is not a positive whole number");
  });
});
