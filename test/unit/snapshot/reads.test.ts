import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApiRequest } from "../../../src/api/request.js";
import { loadDataset, type LoadedDataset } from "../../../src/dataset/load.js";
import type { Catalogue, Db } from "../../../src/engine/db.js";
import { filterPolicies } from "../../../src/engine/filter.js";
import { handleApiRequest } from "../../../src/engine/router.js";
import { buildSnapshot, SQLITE } from "../../helpers/snapshot.js";

/**
 * How a page of code groups reads the catalogue: one read for the whole page, whichever the
 * store (a snapshot answered one query per code: a thousand for a page of 20 versions).
 */

const CODES_PER_VERSION = 12;
const VERSIONS = 6;

// Years that the build's day numbers cannot tell apart (Date.UTC reads 0050 as 1950): the
// snapshot must still give each its own string.
const FROM = ["2020-01-01", "0050-03-01", "1950-03-01", "2000-01-01"];

function writeDataset(): string {
  const code = (v: number, i: number) => `${(v * CODES_PER_VERSION + i) % 40}`.padStart(5, "9");
  const catalogue = Array.from({ length: 40 }, (_, i) => ({
    code_system: "CPT",
    code: `${i}`.padStart(5, "9"),
    description: `Described ${i}`,
  }));
  // A key given twice: the last entry wins, in both stores. One code left undescribed.
  catalogue.push({ code_system: "CPT", code: "99993", description: "Described again" });
  catalogue.splice(7, 1);
  const dataset = {
    format: "coverage-dataset",
    version: 1,
    as_of: "2026-06-01",
    codes: catalogue,
    payers: [{ payer_id: "AET", display_name: "Aetna" }],
    lobs: [{ lob_id: "AET_commercial_CA", payer_id: "AET", lob: "commercial", state: "CA" }],
    policies: Array.from({ length: VERSIONS }, (_, v) => ({
      policy_id: `a/p${v}/${FROM[v % 4]}`,
      policy_number: `P${v}`,
      title: `Policy ${v}`,
      effective_from_date: FROM[v % 4],
      effective_to_date: v === 3 ? "2099-12-31" : null,
      file_url: `https://example.org/p${v}`,
      file_type: "pdf",
      listing_url: "https://example.org/list",
      summary: null,
      criteria_text: null,
      applicability: [{ lob_id: "AET_commercial_CA", from: "2020-01-01", to: null }],
      codes: Array.from({ length: CODES_PER_VERSION }, (_, i) => ({
        code_system: "CPT",
        code: code(v, i),
        relationship: i % 3 ? "COVERS" : "DOES_NOT_COVER",
        category: null,
      })),
    })),
  };
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-reads-")), "reads.json");
  writeFileSync(file, JSON.stringify(dataset));
  return file;
}

const REQUEST = {
  policies: { states: ["CA"] },
  include_code_groups: true,
  limit: VERSIONS,
};
const PAGE: ApiRequest = {
  method: "POST",
  path: "/v1/policies/filter",
  query: [],
  body: REQUEST,
};

/** Counts each call of the catalogue's reads. */
function countReads(db: Db): { get: number; getMany: number } {
  const counts = { get: 0, getMany: 0 };
  const inner: Catalogue = db.catalogue;
  db.catalogue = {
    get: (key) => (counts.get++, inner.get(key)),
    has: (key) => inner.has(key),
    size: inner.size,
    getMany: (keys) => (counts.getMany++, inner.getMany(keys)),
  };
  return counts;
}

let json: string;
beforeAll(() => {
  json = writeDataset();
});

describe("a page's code groups read the catalogue once (the engine, either store)", () => {
  it("in memory: one getMany for the page, no get per code", async () => {
    const { db } = await loadDataset(json);
    const counts = countReads(db);
    const page = filterPolicies(db, REQUEST, "2026-06-01");
    expect(page.data).toHaveLength(VERSIONS);
    expect(page.data.flatMap((p) => p.code_groups ?? [])).not.toHaveLength(0);
    expect(counts).toEqual({ get: 0, getMany: 1 });
  });
});

describe.skipIf(!SQLITE)("a snapshot reads a page's code groups as its build made them", () => {
  let sqlite: typeof import("node:sqlite");
  const restore: Array<() => void> = [];
  afterEach(() => restore.splice(0).forEach((r) => r()));

  /** Counts the runs of statements that read a table (by default `code`, the catalogue). */
  function countCatalogueQueries(table = /\bFROM code\b/): { n: number } {
    const count = { n: 0 };
    const proto = sqlite.StatementSync.prototype;
    for (const name of ["get", "all", "iterate"] as const) {
      const original = proto[name];
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (proto as any)[name] = function (
        this: InstanceType<typeof sqlite.StatementSync>,
        ...args: unknown[]
      ) {
        if (table.test((this as unknown as { sourceSQL: string }).sourceSQL)) count.n++;
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
      restore.push(() => {
        proto[name] = original as never;
      });
    }
    return count;
  }

  async function openBoth(): Promise<{ memory: LoadedDataset; snapshot: LoadedDataset }> {
    const { openSnapshot } = await import("../../../src/snapshot/store.js");
    sqlite = await import("node:sqlite");
    return {
      memory: await loadDataset(json),
      snapshot: await openSnapshot(await buildSnapshot(json)),
    };
  }

  it("one query for the page's groups (none of the catalogue, nor of code links), the same groups as in memory", async () => {
    const { memory, snapshot } = await openBoth();
    const ctx = (d: LoadedDataset) => ({ db: d.db, today: "2026-06-01", linkFor: () => "" });
    const count = countCatalogueQueries();
    const links = countCatalogueQueries(/\bFROM version_code_links\b/);
    const groups = countCatalogueQueries(/\bFROM version_code_groups\b/);
    const res = handleApiRequest(ctx(snapshot), PAGE);
    // The page's groups in one read, and kept (frozen): none for the same page again.
    expect([count.n, links.n, groups.n]).toEqual([0, 0, 1]);
    const first = (res.body as { data: Array<{ code_groups: object[] }> }).data[0]!.code_groups;
    expect([Object.isFrozen(first), Object.isFrozen(first[0])]).toEqual([true, true]);
    handleApiRequest(ctx(snapshot), PAGE);
    expect(groups.n).toBe(1);
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(handleApiRequest(ctx(memory), PAGE).body));
    const body = res.body as { data: Array<{ code_groups: Array<{ descriptions?: string[] }> }> };
    const described = body.data.flatMap((p) => p.code_groups).filter((g) => g.descriptions);
    expect(described.length).toBeGreaterThan(0);
    expect(described.flatMap((g) => g.descriptions)).toContain("Described again");
  });

  it("a page's records and links in one query each, the same page as in memory", async () => {
    const { memory, snapshot } = await openBoth();
    const ctx = (d: LoadedDataset) => ({ db: d.db, today: "2026-06-01", linkFor: () => "" });
    const rows = countCatalogueQueries(/\bFROM version_order o JOIN version\b/);
    const single = countCatalogueQueries(/\bFROM version WHERE seq = /);
    const links = countCatalogueQueries(/\bFROM applicability\b/);
    const page = { ...PAGE, body: { ...REQUEST, include_applicability: true } };
    const res = handleApiRequest(ctx(snapshot), page);
    expect([rows.n, single.n, links.n]).toEqual([1, 0, 1]);
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(handleApiRequest(ctx(memory), page).body));
  });

  it("a search naming states reads only their LOBs and the nationwide ones, the same page as in memory", async () => {
    const { memory, snapshot } = await openBoth();
    const ctx = (d: LoadedDataset) => ({ db: d.db, today: "2026-06-01", linkFor: () => "" });
    const whole = countCatalogueQueries(/\bFROM lob ORDER BY lob_id\b/);
    const scoped = countCatalogueQueries(/\bFROM lob WHERE state IS NULL OR state IN\b/);
    const res = handleApiRequest(ctx(snapshot), PAGE);
    expect([whole.n, scoped.n]).toEqual([0, 1]);
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(handleApiRequest(ctx(memory), PAGE).body));
    // Every LOB once something asks for the list (and then the scope reads no rows again).
    expect(snapshot.db.lobs.map((l) => l.lob_id)).toEqual(memory.db.lobs.map((l) => l.lob_id));
    handleApiRequest(ctx(snapshot), {
      ...PAGE,
      body: { ...REQUEST, policies: { states: ["NY"] } },
    });
    expect([whole.n, scoped.n]).toEqual([1, 1]);
  });

  it("one query for one version's detail (its groups), the same detail as in memory", async () => {
    const { memory, snapshot } = await openBoth();
    const count = countCatalogueQueries(/\bFROM (code|version_code_links|version_code_groups)\b/);
    const detail = (d: LoadedDataset) =>
      handleApiRequest(
        { db: d.db, today: "2026-06-01", linkFor: () => "" },
        { method: "GET", path: "/v1/policies/a/p4/2020-01-01", query: [] },
      );
    const res = detail(snapshot);
    expect(res.status).toBe(200);
    expect(count.n).toBe(1);
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(detail(memory).body));
  });

  it("the same answers where node:sqlite cannot return rows as arrays (Node.js 22.13 to 22.15)", async () => {
    sqlite = await import("node:sqlite");
    const proto = sqlite.StatementSync.prototype as { setReturnArrays?: unknown };
    const original = proto.setReturnArrays;
    delete proto.setReturnArrays;
    restore.push(() => {
      if (original) proto.setReturnArrays = original;
    });
    const { memory, snapshot } = await openBoth();
    const ask = (d: LoadedDataset, body: unknown) =>
      JSON.stringify(
        handleApiRequest({ db: d.db, today: "2026-06-01", linkFor: () => "" }, { ...PAGE, body })
          .body,
      );
    for (const body of [
      REQUEST,
      { ...REQUEST, policies: { states: ["CA"], q: "policy 3" } },
      { ...REQUEST, policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["99991"] }] } } },
    ])
      expect(ask(snapshot, body)).toBe(ask(memory, body));
  });

  it("a scope filter over more candidates than one prefetch reads (10,000): the same answers", async () => {
    const n = 10_050;
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-slices-")), "many.json");
    writeFileSync(
      file,
      JSON.stringify({
        format: "coverage-dataset",
        version: 1,
        as_of: "2026-06-01",
        payers: [{ payer_id: "AET", display_name: "Aetna" }],
        lobs: [
          { lob_id: "AET_commercial_CA", payer_id: "AET", lob: "commercial", state: "CA" },
          { lob_id: "AET_commercial_NY", payer_id: "AET", lob: "commercial", state: "NY" },
        ],
        policies: Array.from({ length: n }, (_, v) => ({
          policy_id: `m/p${v}/2020-01-01`,
          policy_number: `P${v}`,
          title: `Policy ${v % 7 ? "knee" : "sleep"}`,
          effective_from_date: "2020-01-01",
          effective_to_date: null,
          file_url: `https://example.org/p${v}`,
          file_type: "pdf",
          listing_url: "https://example.org/list",
          summary: null,
          criteria_text: null,
          // Every version is a candidate of `states: ["CA"]`; one in three has only a link
          // that ended, which Rule Filter 3 leaves out.
          applicability: [
            {
              lob_id: v % 2 ? "AET_commercial_CA" : "AET_commercial_NY",
              from: "2020-01-01",
              to: v % 3 ? null : "2021-01-01",
            },
            ...(v % 2
              ? []
              : [
                  {
                    lob_id: "AET_commercial_CA",
                    from: "2020-01-01",
                    to: v % 3 ? null : "2021-01-01",
                  },
                ]),
          ],
          codes: [],
        })),
      }),
    );
    const { openSnapshot } = await import("../../../src/snapshot/store.js");
    const memory = await loadDataset(file);
    const snapshot = await openSnapshot(await buildSnapshot(file));
    const ask = (d: LoadedDataset, body: unknown) =>
      JSON.stringify(
        handleApiRequest({ db: d.db, today: "2026-06-01", linkFor: () => "" }, { ...PAGE, body })
          .body,
      );
    for (const body of [
      { policies: { states: ["CA"] }, sort: "policy_id_desc", limit: 100, offset: 6600 },
      { policies: { states: ["CA"], q: "sleep" }, limit: 100, offset: 900 },
      { policies: { states: ["CA"] }, limit: 100, offset: 6650, include_applicability: true },
    ])
      expect(ask(snapshot, body)).toBe(ask(memory, body));
  });
});
