import { describe, expect, it } from "vitest";
import type { Envelope, Policy } from "../../../src/contract/index.js";
import { compareCodePoints } from "../../../src/engine/compare.js";
import { PROBE_LIMIT, VersionFinder } from "../../../src/views/find-versions.js";
import {
  findPredecessor,
  isVersionOf,
  pickVersion,
  selectVersions,
  splitPolicyId,
} from "../../../src/views/policy-key.js";

const policy = (id: string, to: string | null = null): Policy =>
  ({
    policy_id: id,
    policy_number: id,
    title: id,
    effective_from_date: id.slice(-10),
    effective_to_date: to,
    file_url: "",
    file_type: "pdf",
    listing_url: "",
    summary: null,
  }) as Policy;

/** A server's sorted answer to `sort: policy_id_asc, limit 100, offset N`, counting requests. */
function catalogue(ids: string[], opts: { ignoreOffset?: boolean; unsorted?: boolean } = {}) {
  const sorted = [...ids].sort(compareCodePoints);
  if (opts.unsorted) sorted.reverse();
  const asked: number[] = [];
  const fetch = (offset: number): Promise<Envelope<Policy>> => {
    asked.push(offset);
    const at = opts.ignoreOffset ? 0 : offset;
    const data = sorted.slice(at, at + PROBE_LIMIT).map((id) => policy(id));
    return Promise.resolve({
      data,
      limit: PROBE_LIMIT,
      offset: at,
      has_more: at + PROBE_LIMIT < sorted.length,
    });
  };
  return { fetch, asked };
}

/** `n` filler ids around the versions of `src/k` (and of the longer key `src/k/sub`). */
function ids(n: number): string[] {
  const filler = Array.from({ length: n }, (_, i) => `p${String(i).padStart(6, "0")}/x/2020-01-01`);
  return [
    ...filler,
    "src/k/2020-01-01",
    "src/k/2024-05-01",
    "src/k/sub/2021-01-01",
    "src/k2/2020-01-01",
    "src/j/2020-01-01",
  ];
}

describe("policy keys", () => {
  it.each([
    ["cms-lcd/L33718/2024-01-01", { key: "cms-lcd/L33718", date: "2024-01-01" }],
    ["aetna/cpb/0004/2026-09-01", { key: "aetna/cpb/0004", date: "2026-09-01" }],
    ["cms-lcd/L33718", undefined],
    ["2024-01-01", undefined],
    ["a/2024-1-01", undefined],
  ])("splitPolicyId(%s)", (id, parts) => {
    expect(splitPolicyId(id)).toEqual(parts);
  });

  it.each([
    ["src/k/2020-01-01", "src/k", true],
    ["src/k/sub/2021-01-01", "src/k", false],
    ["src/k2/2020-01-01", "src/k", false],
  ])("isVersionOf(%s, %s) = %s", (id, key, yes) => {
    expect(isVersionOf(id, key)).toBe(yes);
  });

  const versions = selectVersions(
    [
      policy("k/2026-12-01"),
      policy("k/2024-01-01", "2026-01-01"),
      policy("k/2026-01-01", "2026-12-01"),
    ],
    "k",
  );
  it("selectVersions orders oldest first", () => {
    expect(versions.map((v) => v.policy_id)).toEqual([
      "k/2024-01-01",
      "k/2026-01-01",
      "k/2026-12-01",
    ]);
  });
  it.each([
    ["2025-06-01", "k/2024-01-01"],
    ["2026-06-01", "k/2026-01-01"],
    ["2027-01-01", "k/2026-12-01"],
    // Before any version: none in effect, so the latest.
    ["2020-01-01", "k/2026-12-01"],
  ])("pickVersion on %s: %s", (today, id) => {
    expect(pickVersion(versions, today)?.policy_id).toBe(id);
  });
  it.each([
    ["k/2026-01-01", "k/2024-01-01"],
    ["k/2024-01-01", undefined],
    ["k/nope", undefined],
  ])("findPredecessor(%s) = %s", (id, previous) => {
    expect(findPredecessor(versions, id)?.policy_id).toBe(previous);
  });
});

describe("VersionFinder: versions of a key over pages sorted by policy id", () => {
  it.each([0, 1, 99, 100, 101, 250, 5_000, 40_000])(
    "%i other versions: finds exactly the key's, in about 2*log2(pages) requests",
    async (n) => {
      const { fetch, asked } = catalogue(ids(n));
      const finder = new VersionFinder(fetch);
      const found = await finder.versionsOf("src/k");
      expect(found.map((p) => p.policy_id)).toEqual(["src/k/2020-01-01", "src/k/2024-05-01"]);
      const pages = Math.ceil((n + 5) / PROBE_LIMIT);
      expect(asked.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(pages + 1)) + 3);
      expect(new Set(asked).size).toBe(asked.length);
    },
  );

  it("a second key reuses the pages already fetched", async () => {
    const { fetch, asked } = catalogue(ids(5_000));
    const finder = new VersionFinder(fetch);
    await finder.versionsOf("src/k");
    const first = asked.length;
    expect((await finder.versionsOf("src/k2")).map((p) => p.policy_id)).toEqual([
      "src/k2/2020-01-01",
    ]);
    expect(asked.length - first).toBeLessThanOrEqual(1);
  });

  it.each(["nope", "a", "zzz", "src/k/sub"])("an unknown key %s finds nothing", async (key) => {
    const { fetch } = catalogue(ids(300));
    const found = await new VersionFinder(fetch).versionsOf(key);
    expect(found.map((p) => p.policy_id)).toEqual(
      key === "src/k/sub" ? ["src/k/sub/2021-01-01"] : [],
    );
  });

  it("a server that ignores offset is an error, not a wrong answer", async () => {
    const { fetch } = catalogue(ids(300), { ignoreOffset: true });
    await expect(new VersionFinder(fetch).versionsOf("src/k")).rejects.toThrow(/ignores paging/);
  });

  it("a server that does not sort is an error", async () => {
    const { fetch } = catalogue(ids(300), { unsorted: true });
    await expect(new VersionFinder(fetch).versionsOf("src/k")).rejects.toThrow(/did not order/);
  });

  it("the request ceiling stops the search with a clear error", async () => {
    const { fetch } = catalogue(ids(5_000));
    await expect(new VersionFinder(fetch, 3).versionsOf("src/k")).rejects.toThrow(
      /more than 3 requests/,
    );
  });
});
