import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiRequest } from "../../../src/api/request.js";
import { LOB_CATEGORIES, SORTS } from "../../../src/contract/index.js";
import { loadDataset, type LoadedDataset } from "../../../src/dataset/load.js";
import { handleApiRequest } from "../../../src/engine/router.js";
import { FilterCache } from "../../../src/engine/filter-cache.js";
import { buildSnapshot, SQLITE } from "../../helpers/snapshot.js";
import { listDates, makeDataset } from "./generated-dataset.js";

function answer(dataset: LoadedDataset, today: string, req: ApiRequest, cache?: FilterCache) {
  const res = handleApiRequest(
    {
      db: dataset.db,
      today,
      linkFor: (_v, variant, file) => `link:${variant}:${file}`,
      filterCache: cache,
    },
    JSON.parse(JSON.stringify(req)) as ApiRequest,
  );
  return { status: res.status, body: JSON.stringify(res.body) };
}

// Random filter bodies over generated datasets, answered by the JSON path, by a snapshot, and
// by a snapshot behind a FilterCache: byte-identical answers. The large dataset makes a code's
// description rank through postings far longer than its candidates (scoreIndexed's lookups),
// and both kinds of candidates occur: exact ones the engine takes (StoreIndex.settles) and
// supersets it tests (a today or window bound that is not a real day). Every version's detail
// is compared too.
describe.skipIf(!SQLITE)("snapshot parity on generated datasets", () => {
  it.each([
    [1, 120, 1000],
    [2, 2000, 600],
  ])(
    "seed %d, %d versions, %d bodies",
    async (seed, size, runs) => {
      const ds = makeDataset(seed, size);
      const dir = mkdtempSync(path.join(os.tmpdir(), "rv-"));
      const file = path.join(dir, "d.json");
      writeFileSync(file, JSON.stringify(ds));
      const { openSnapshot } = await import("../../../src/snapshot/store.js");
      const json = await loadDataset(file);
      const snap = await openSnapshot(await buildSnapshot(file));
      const snapCached = await openSnapshot(await buildSnapshot(file));
      const cache = new FilterCache();
      const idx = snap.db.index!;
      let settledTrue = 0;
      let settledCalls = 0;
      const orig = idx.settles.bind(idx);
      (idx as { settles: typeof idx.settles }).settles = (f, t) => {
        const r = orig(f, t);
        settledCalls++;
        if (r) settledTrue++;
        return r;
      };
      const dates = listDates(ds);
      const todays = [
        "2026-06-01",
        "2026-02-30",
        "0050-06-01",
        "1999-12-31",
        "2000-01-01",
        "0999-12-31",
        ...dates.filter((_, i) => i % 7 === 0),
      ];
      const lobIds = [
        ...ds.lobs.map((l) => l.lob_id),
        "P1_commercial_",
        "P2_medicaid_",
        "P_3_medicare_part_b_",
        "P_3_commercial_",
        "NOPE",
      ];
      const some = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 0, maxLength: 3 });
      const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
      const spellings = [
        "E11.9",
        "e119",
        "E1.19",
        " e11.9",
        "G4733",
        "E0601",
        "e0601",
        "99213",
        "0001u",
        "X9",
        "z00.00",
        "Z0000",
        "ZZZ",
      ];
      const ref = fc.record(
        {
          code_system: fc.constantFrom("ICD10CM", "HCPCS", "CPT"),
          codes: fc.array(fc.constantFrom(...spellings), { minLength: 1, maxLength: 3 }),
          relationship: maybe(
            fc.subarray(["COVERS", "DOES_NOT_COVER", "REFERENCES"], { minLength: 1 }),
          ),
        },
        { requiredKeys: ["code_system", "codes"] },
      );
      const dateArb = fc.constantFrom(...dates);
      const policies = fc.record(
        {
          q: fc.oneof(
            fc.constant(""),
            fc
              .array(fc.constantFrom("sleep", "the", "apnea", "pump", "zz"), { maxLength: 3 })
              .map((w) => w.join(" ")),
          ),
          code_refs: fc.record(
            {
              refs: fc.array(ref, { minLength: 1, maxLength: 3 }),
              match: maybe(fc.constantFrom("any", "all")),
            },
            { requiredKeys: ["refs"] },
          ),
          payer_ids: some(fc.constantFrom("P1", "P2", "P_3", "NOPE")),
          lobs: some(fc.constantFrom(...LOB_CATEGORIES)),
          lob_ids: some(fc.constantFrom(...lobIds)),
          states: some(fc.constantFrom("CA", "NY", "TX", "WA")),
          retired: fc.constantFrom(true, false, null),
          effective_date: fc.oneof(
            fc.constant(null),
            fc.record(
              {
                start: fc.option(dateArb, { nil: undefined }),
                end: fc.option(dateArb, { nil: undefined }),
              },
              { requiredKeys: [] },
            ),
            fc.record({ start: fc.option(dateArb), end: fc.option(dateArb) }),
          ),
        },
        { requiredKeys: [] },
      );
      const body = fc.record(
        {
          policies,
          sort: fc.constantFrom(...SORTS),
          limit: fc.integer({ min: 1, max: 100 }),
          offset: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 400 })),
          include_applicability: fc.boolean(),
          include_code_groups: fc.boolean(),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(body, fc.constantFrom(...todays), (b, today) => {
          const req: ApiRequest = {
            method: "POST",
            path: "/v1/policies/filter",
            query: [],
            body: b,
          };
          const a = answer(json, today, req);
          const s = answer(snap, today, req);
          expect(s.status).toBe(a.status);
          expect(s.body).toBe(a.body);
          const c = answer(snapCached, today, req, cache);
          expect(c.body).toBe(a.body);
        }),
        { numRuns: runs, seed },
      );
      for (const p of ds.policies) {
        const at = `/v1/policies/${p.policy_id}`;
        const req: ApiRequest = { method: "GET", path: at, query: [] };
        expect(answer(snap, "2026-06-01", req).body).toBe(answer(json, "2026-06-01", req).body);
      }
      // Both paths were taken: candidates taken as they are, and candidates tested again.
      expect(settledTrue).toBeGreaterThan(0);
      expect(settledTrue).toBeLessThan(settledCalls);
    },
    120_000,
  );
});
