import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PolicyFilter } from "../../../src/contract/index.js";
import { loadDataset } from "../../../src/dataset/load.js";
import type { Db } from "../../../src/engine/db.js";
import { allIds, link, policy, rulesDataset } from "../engine/rules-fixture.js";
import { buildSnapshot, SQLITE } from "../../helpers/snapshot.js";

// A snapshot narrows a scope filter by each LOB's links and their periods (rule Filter 3 in day
// numbers): the candidates are the versions with a link the rule could select, not every
// version ever linked to the LOB, so the engine reads and tests fewer records. Never fewer than
// the rules keep: every answer is the in-memory store's.

const TODAY = "2026-06-01";
const dataset = rulesDataset(
  [
    // Linked to the CA LOB until 2024 only, then to TX: not current in CA. Retired.
    policy("c/ended/2020-01-01", {
      effective_to_date: "2025-01-01",
      applicability: [
        link("AET_commercial_CA", "2020-01-01", "2024-01-01"),
        link("UHC_commercial_TX", "2024-01-01"),
      ],
    }),
    policy("c/current/2020-01-01", { applicability: [link("AET_commercial_CA", "2020-01-01")] }),
    // Ends on today: not current (Rule Filter 3: `to` after today).
    policy("c/today/2020-01-01", {
      applicability: [link("AET_commercial_CA", "2020-01-01", TODAY)],
    }),
    // Starts later: current (not ended).
    policy("c/later/2020-01-01", { applicability: [link("AET_commercial_CA", "2027-01-01")] }),
    policy("c/texas/2020-01-01", { applicability: [link("UHC_commercial_TX", "2019-01-01")] }),
  ],
  TODAY,
);

function ids(db: Db, positions: readonly number[]): string[] {
  return positions.map((p) => db.index!.versionAt(p)!.policy_id);
}

async function open() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-candidates-"));
  const json = path.join(dir, "d.json");
  writeFileSync(json, JSON.stringify(dataset));
  const file = await buildSnapshot(json);
  const { openSnapshot } = await import("../../../src/snapshot/store.js");
  return { snapshot: (await openSnapshot(file)).db, memory: (await loadDataset(json)).db };
}

const FILTERS: Array<[string, PolicyFilter, string[]]> = [
  ["current links", { states: ["CA"] }, ["c/current/2020-01-01", "c/later/2020-01-01"]],
  [
    "a window",
    { states: ["CA"], effective_date: { start: "2023-01-01", end: "2023-12-31" } },
    ["c/current/2020-01-01", "c/ended/2020-01-01", "c/today/2020-01-01"],
  ],
  [
    "a window's start only",
    { states: ["CA"], effective_date: { start: "2025-01-01" } },
    ["c/current/2020-01-01", "c/later/2020-01-01", "c/today/2020-01-01"],
  ],
  ["retired: true (every link)", { states: ["CA"], retired: true }, ["c/ended/2020-01-01"]],
];

describe.skipIf(!SQLITE)("snapshot candidates of a scope filter", () => {
  it.each(FILTERS)("%s: the versions with a link rule Filter 3 selects", async (_n, f, want) => {
    const { snapshot, memory } = await open();
    const candidates = ids(snapshot, snapshot.index!.findCandidates(f, TODAY));
    expect(candidates.sort()).toEqual(want);
    // Exact: the engine takes them without reading each version's links again.
    expect(snapshot.index!.settles(f, TODAY)).toBe(true);
    const request = { policies: f };
    expect(allIds(snapshot, request, TODAY)).toEqual(allIds(memory, request, TODAY));
  });

  it("a today it cannot read as a day leaves every link a candidate, and settles nothing", async () => {
    const { snapshot } = await open();
    const candidates = snapshot.index!.findCandidates({ states: ["CA"] }, "2026-02-30");
    expect(candidates).toHaveLength(4);
    expect(snapshot.index!.settles({ states: ["CA"] }, "2026-02-30")).toBe(false);
    // Today is not asked for where the rules do not use it.
    expect(snapshot.index!.settles({ states: ["CA"], retired: true }, "2026-02-30")).toBe(true);
    expect(snapshot.index!.settles({ retired: false }, "2026-02-30")).toBe(true);
  });
});

describe.skipIf(!SQLITE)("snapshot open", () => {
  it("reads meta's scalars only: the engine's arrays wait for a query that needs them", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-candidates-"));
    const json = path.join(dir, "d.json");
    writeFileSync(json, JSON.stringify(dataset));
    const { openSnapshotDatabase } = await import("../../../src/snapshot/store.js");
    const { db, meta } = await openSnapshotDatabase(await buildSnapshot(json));
    db.close();
    expect(meta.get("versions")).toBe(5);
    for (const key of ["pos_of_seq", "seq_of_pos", "from_days", "title_terms"])
      expect(meta.has(key)).toBe(false);
  });
});
