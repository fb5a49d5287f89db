import { describe, expect, it } from "vitest";
import type { FilterRequest } from "../../../src/contract/index.js";
import type { Db, PolicyRecord, StoreIndex } from "../../../src/engine/db.js";
import { filterPolicies } from "../../../src/engine/filter.js";
import { code, LOBS, link, policy, rulesDb } from "./rules-fixture.js";

// A store on disk keeps a bounded number of records (50,000 for a snapshot) and reads them in
// batches (prefetch). A sort or a ranking over more versions than it keeps must read them in
// slices, taking each slice's records before the next is read: read at once, the first would
// be forgotten before they were taken, then read again one by one.

const VERSIONS = 12_000; // more than one slice (10,000)
const KEEPS = 11_000; // fewer than the versions
const memory = rulesDb(
  Array.from({ length: VERSIONS }, (_, v) =>
    policy(`s/p${String(v).padStart(5, "0")}/2020-01-01`, {
      title: `Knee ${v % 7} therapy`,
      codes: [code("CPT", "97110")],
      applicability: [link(LOBS[0]!.lob_id)],
    }),
  ),
  [{ code_system: "CPT", code: "97110", description: "Knee therapy exercises" }],
);

/** `memory` behind a store that keeps KEEPS records; `misses` counts reads it had not kept. */
function boundedStore(): { db: Db; misses: () => number } {
  const kept = new Set<number>();
  let misses = 0;
  const index = {
    prefetch(positions: readonly number[]) {
      for (const p of positions) {
        kept.delete(p);
        kept.add(p);
        if (kept.size > KEEPS) kept.delete(kept.values().next().value as number);
      }
    },
    versionAt(p: number): PolicyRecord | undefined {
      if (!kept.has(p)) misses++;
      return memory.policies[p];
    },
    // Postings a row each: ranking reads the candidates' own text.
    countPostings: () => Number.POSITIVE_INFINITY,
    readPage: () => undefined,
  } as Partial<StoreIndex> as StoreIndex;
  return { db: { ...memory, index }, misses: () => misses };
}

describe("a sort or ranking over more versions than a store keeps", () => {
  it.each<[string, FilterRequest]>([
    [
      "a field sort",
      {
        policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] } },
        sort: "title_asc",
      },
    ],
    [
      "relevance by the code's description",
      { policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] } } },
    ],
  ])("%s: each record read once, the same answer", (_, request) => {
    const { db, misses } = boundedStore();
    const page = filterPolicies(db, request, "2026-06-01");
    expect(misses()).toBe(0);
    expect(page).toEqual(filterPolicies(memory, request, "2026-06-01"));
  });
});
