import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bundledDatasetPath, loadDataset, prebuildIndex } from "../../../src/dataset/load.js";
import { openPrebuiltIndex, versionFields } from "../../../src/dataset/prebuilt.js";
import type { Db, PolicyRecord } from "../../../src/engine/db.js";

/** A version as the engine reads it, its links included. */
function plain(p: PolicyRecord) {
  return { ...versionFields(p), links: p.links };
}

function entries<K, V>(
  lookup: { get(key: K): V | undefined },
  keys: Iterable<K>,
): Array<[K, V | undefined]> {
  return [...keys].map((key) => [key, lookup.get(key)]);
}

describe("the bundled sample's prebuilt index", () => {
  const file = bundledDatasetPath();
  const size = statSync(file).size;
  // Through JSON, as the build writes it and a start reads it.
  const prebuilt = JSON.parse(JSON.stringify(prebuildIndex(file))) as unknown;

  it("gives the engine the same indexes as checking and indexing the file", async () => {
    const { db: indexed } = await loadDataset(file);
    const db = openPrebuiltIndex(prebuilt, size) as Db;
    expect(db).toBeDefined();
    expect(db.asOf).toBe(indexed.asOf);
    expect([...db.payers]).toEqual([...indexed.payers]);
    expect(db.lobs).toEqual(indexed.lobs);
    expect([...db.lobById]).toEqual([...indexed.lobById]);
    expect(db.policies.map(plain)).toEqual(indexed.policies.map(plain));
    const ids = indexed.policies.map((p) => p.policy_id);
    expect(entries(db.byId, ids).map(([k, p]) => [k, plain(p as PolicyRecord)])).toEqual(
      entries(indexed.byId, ids).map(([k, p]) => [k, plain(p as PolicyRecord)]),
    );
    const codeKeys = [...(indexed.byCode as Map<string, number[]>).keys()];
    expect(db.byCode.size).toBe(indexed.byCode.size);
    expect(entries(db.byCode, codeKeys)).toEqual(entries(indexed.byCode, codeKeys));
    const series = [...(indexed.bySeries as Map<string, PolicyRecord[]>).keys()];
    expect(db.bySeries.size).toBe(indexed.bySeries.size);
    expect(entries(db.bySeries, series).map(([k, v]) => [k, v?.map((p) => p.policy_id)])).toEqual(
      entries(indexed.bySeries, series).map(([k, v]) => [k, v?.map((p) => p.policy_id)]),
    );
    expect([...db.catalogue.getMany([])]).toEqual([...indexed.catalogue.getMany([])]);
    // Records link the very LOB records of the index, as indexDataset's do.
    for (const p of db.policies)
      for (const link of p.links) expect(db.lobById.get(link.lob.lob_id)).toBe(link.lob);
  });

  it("stands only for a file of the size it was made from", () => {
    expect(openPrebuiltIndex(prebuilt, size + 1)).toBeUndefined();
    expect(openPrebuiltIndex({ ...(prebuilt as object), version: 2 }, size)).toBeUndefined();
    expect(openPrebuiltIndex({ format: "coverage-dataset" }, size)).toBeUndefined();
    expect(openPrebuiltIndex(null, size)).toBeUndefined();
  });
});
