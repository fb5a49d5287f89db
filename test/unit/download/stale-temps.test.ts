import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeStaleTemps } from "../../../src/download/stale-temps.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe("removeStaleTemps: leftovers of killed downloads of the same target", () => {
  it.each([
    { name: ".F.pdf.77-0123456789ab.part", idle: 2 * MINUTE, alive: false, removed: true },
    { name: ".F.pdf.77-0123456789ab.part", idle: 30_000, alive: false, removed: false },
    { name: ".F.pdf.77-0123456789ab.part", idle: 2 * MINUTE, alive: true, removed: false },
    { name: ".F.pdf.77-0123456789ab.part", idle: DAY + MINUTE, alive: true, removed: true },
    { name: ".F.pdf.0123456789ab.part", idle: DAY + MINUTE, alive: false, removed: false },
    { name: ".G.pdf.77-0123456789ab.part", idle: DAY + MINUTE, alive: false, removed: false },
    { name: ".F.pdf.77-0123456789ab.part.bak", idle: DAY + MINUTE, alive: false, removed: false },
    { name: "F.pdf.77-0123456789ab.part", idle: DAY + MINUTE, alive: false, removed: false },
  ])("$name idle $idle ms, owner alive $alive: removed $removed", async (c) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-stale-"));
    const file = path.join(dir, c.name);
    writeFileSync(file, "x");
    const now = Date.now();
    const when = new Date(now - c.idle);
    utimesSync(file, when, when);
    const asked: number[] = [];
    const removed = await removeStaleTemps(path.join(dir, "F.pdf"), now, (pid) => {
      asked.push(pid);
      return c.alive;
    });
    expect(removed).toEqual(c.removed ? [file] : []);
    expect(readdirSync(dir)).toEqual(c.removed ? [] : [c.name]);
    if (asked.length) expect(asked).toEqual([77]);
  });

  it("never touches this process's own temporary files, and a missing folder is no error", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-stale-"));
    const mine = `.F.pdf.${process.pid}-0123456789ab.part`;
    writeFileSync(path.join(dir, mine), "x");
    const later = Date.now() + 2 * DAY;
    expect(await removeStaleTemps(path.join(dir, "F.pdf"), later, () => false)).toEqual([]);
    expect(readdirSync(dir)).toEqual([mine]);
    expect(await removeStaleTemps(path.join(dir, "none", "F.pdf"))).toEqual([]);
  });
});
