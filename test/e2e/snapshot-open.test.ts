// Opening a snapshot (cli.md, "Local snapshots and real data"): a reader waits for a lock that
// another process holds; a file that only claims to be a snapshot is exit 2 "not a coverage
// snapshot" in every command.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { beforeAll, describe, expect, it } from "vitest";
import { RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "../../src/snapshot/schema.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-open-"));
let snapshot = "";
let gutted = "";

beforeAll(async () => {
  if (!SQLITE) return;
  snapshot = await buildSnapshot(RULES_DATA, path.join(dir, "rules.db"));
  gutted = path.join(dir, "gutted.db");
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(gutted);
  db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value)");
  db.prepare("INSERT INTO meta VALUES (?, ?), (?, ?)").run(
    "format",
    SNAPSHOT_FORMAT,
    "format_version",
    SNAPSHOT_VERSION,
  );
  db.close();
});

describe.skipIf(!SQLITE)("opening a snapshot", () => {
  it("waits for a lock another process holds, then answers", async () => {
    // Another process takes an exclusive lock, says so, and lets go a moment later.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const { DatabaseSync } = require("node:sqlite");
         const db = new DatabaseSync(process.argv[1]);
         db.exec("BEGIN EXCLUSIVE");
         process.stdout.write("locked\\n");
         setTimeout(() => { db.exec("COMMIT"); db.close(); }, 1500);`,
        snapshot,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await once(holder.stdout!, "data");
    const r = await runInProcess(["--local", "--data", snapshot, "payers", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data.length).toBeGreaterThan(0);
    await once(holder, "exit");
  });

  it.each([() => ["--local", "--data", snapshot, "payers"], () => ["data", "info", snapshot]])(
    "a lock held past the wait: exit 1, names the lock and says to run again, never 'rebuild' (%#)",
    async (args) => {
      // Held by a connection of this process (SQLite locks it as another process's): the
      // reader waits its 5 s, then fails.
      const { DatabaseSync } = await import("node:sqlite");
      const holder = new DatabaseSync(snapshot);
      holder.exec("BEGIN EXCLUSIVE");
      try {
        const r = await runInProcess(args());
        expect(r.exitCode, r.stderr).toBe(1);
        expect(r.stderr).toContain(`snapshot ${snapshot} is locked: another process is writing`);
        expect(r.stderr).toContain("Run the command again when that process has finished");
        expect(r.stderr).not.toMatch(/rebuild|report it/i);
      } finally {
        holder.exec("ROLLBACK");
        holder.close();
      }
    },
  );

  it("a version deleted in place by another program: exit 2 'damaged', never a crash or half an answer", async () => {
    const damaged = path.join(dir, "damaged.db");
    copyFileSync(snapshot, damaged);
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(damaged);
    db.prepare("DELETE FROM version WHERE policy_id = ?").run("cms-ncd/240.4/2008-03-13");
    db.close();
    const r = await runInProcess(["--local", "--data", damaged, "search", "--code", "HCPCS:E0601"]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`snapshot ${damaged} is damaged`);
    expect(r.stdout).toBe("");
  });

  it.each([
    () => ["data", "info", gutted],
    () => ["--local", "--data", gutted, "payers"],
    () => ["--local", "--data", gutted, "search", "--code", "CPT:97110"],
    () => ["data", "export", gutted, "-o", path.join(dir, "e.json")],
  ])(
    "a file with the snapshot's meta table only: exit 2, not a coverage snapshot (%#)",
    async (args) => {
      const r = await runInProcess(args());
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${gutted} is not a coverage snapshot`);
      expect(r.stderr).not.toContain("no such table");
    },
  );
});
