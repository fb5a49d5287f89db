import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PolicyFilter } from "../../../src/contract/index.js";
import { loadDataset } from "../../../src/dataset/load.js";
import { dayNumber } from "../../../src/snapshot/days.js";
import { allIds, link, policy, rulesDataset } from "../engine/rules-fixture.js";
import { buildSnapshot, SQLITE } from "../../helpers/snapshot.js";

// Dates of the years 0000 to 0099 and of the 1900s in a snapshot's day numbers: Date.UTC read
// 0050 as 1950, so a snapshot put such a start a century late and a window filter dropped the
// version. Every answer must be the in-memory store's (snapshots with those day numbers were
// format version 1, which this release refuses).

const TODAY = "2026-06-01";
const CA = "AET_commercial_CA";
const STARTS = ["0001-01-01", "0050-03-01", "0099-12-31", "1899-12-31", "1950-03-01", "1999-06-01"];
const policies = STARTS.map((start, i) =>
  policy(`o/p${i}/${start}`, {
    effective_to_date: i % 2 ? "2030-01-01" : null,
    applicability: [link(CA, start, i % 3 ? null : "2001-01-01")],
  }),
);
const dataset = rulesDataset(policies, TODAY);

const WINDOWS: PolicyFilter[] = [
  "0001-01-01",
  "0050-06-01",
  "0100-01-01",
  "1900-06-01",
  "1950-06-01",
  "1999-07-01",
].flatMap((day): PolicyFilter[] => [
  { effective_date: { start: day, end: day } },
  { effective_date: { end: day } },
  { effective_date: { start: day, end: day }, states: ["CA"] },
  { effective_date: { end: day }, lobs: ["commercial"], retired: false },
]);

async function openBoth() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-old-dates-"));
  const json = path.join(dir, "d.json");
  writeFileSync(json, JSON.stringify(dataset));
  const file = await buildSnapshot(json);
  const { openSnapshot } = await import("../../../src/snapshot/store.js");
  return { snapshot: (await openSnapshot(file)).db, memory: (await loadDataset(json)).db };
}

describe.skipIf(!SQLITE)("dates before 2000 in a snapshot's day numbers", () => {
  it("days of the years 0000 to 9999 are exact (the years below 100 too)", () => {
    const exact = (y: number, m: number, d: number) => {
      const at = new Date(0);
      at.setUTCFullYear(y, m - 1, d);
      return Math.round(at.getTime() / 86_400_000);
    };
    for (const [y, m, d] of [
      [0, 1, 1],
      [1, 1, 1],
      [50, 3, 1],
      [99, 12, 31],
      [1899, 12, 31],
      [1970, 1, 1],
      [9999, 12, 31],
    ] as const)
      expect(
        dayNumber(
          `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
        ),
      ).toBe(exact(y, m, d));
  });

  it("window filters answer as in memory (the store's candidates are exact there)", async () => {
    const { snapshot, memory } = await openBoth();
    for (const filter of WINDOWS) {
      const request = { policies: filter };
      expect(allIds(snapshot, request, TODAY), JSON.stringify(filter)).toEqual(
        allIds(memory, request, TODAY),
      );
    }
  });
});
