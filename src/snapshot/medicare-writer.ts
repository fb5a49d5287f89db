import { existsSync, statSync } from "node:fs";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { UsageError } from "../errors.js";
import type { GpciEntry, RuleRelease } from "../domain/medicare-edits.js";
import {
  dateNumber,
  MEDICARE_INDEX_NAMES,
  MEDICARE_INDEXES,
  MEDICARE_RULES_VERSION,
  MEDICARE_TABLES,
  RULE_TABLE,
} from "./medicare-schema.js";
import { openSnapshotDatabase } from "./store.js";
import { loadSqlite } from "./sqlite.js";
import { openSnapshotWriter } from "./writer.js";

/** Rows of one file as the writer takes them (dates `YYYY-MM-DD`; codes upper case). */
export type RuleRow =
  | {
      kind: "ptp";
      c1: string;
      c2: string;
      pre: boolean;
      eff: string;
      del: string | null;
      mod: number;
      why: string;
    }
  | { kind: "mue"; code: string; value: number; mai: number | null; why: string }
  | {
      kind: "aoc";
      addOn: string;
      primary: string | null;
      type: number;
      eff: string;
      del: string | null;
      addOnDel: string | null;
      primaryDel: string | null;
      notes: string;
    }
  | {
      kind: "pfs";
      code: string;
      mod: string;
      status: string;
      global: string;
      pctc: string;
      work: number;
      nfPe: number;
      nfNa: boolean;
      fPe: number;
      fNa: boolean;
      mp: number;
      nfTotal: number;
      fTotal: number;
      cf: number;
    }
  | ({ kind: "gpci" } & Omit<GpciEntry, "release">)
  | {
      kind: "dmepos";
      code: string;
      mod: string;
      mod2: string;
      state: string;
      nr: number | null;
      r: number | null;
      juris: string;
      catg: string;
    }
  | {
      kind: "pa";
      code: string;
      program: string;
      category: string;
      states: string;
      from: string;
      to: string | null;
      source: string;
    };

/** Takes the rows of one file after another, in one transaction. */
export interface RuleWriter {
  /** Starts a file: earlier rows of the same release slot (kind, setting, program, part) go. */
  begin(release: Omit<RuleRelease, "rows" | "odd_rows">): void;
  add(row: RuleRow): void;
  /** Ends the file, recording its counts. */
  end(rows: number, oddRows: number): void;
  /** Indexes, commits; the snapshot is whole either way. */
  commit(): void;
  /** Leaves the snapshot as it was. */
  rollback(): void;
}

/**
 * Opens a snapshot to import rules into (`--into`); one that does not exist yet is made first
 * with an empty catalogue. Everything of one run is one transaction: a failure, a refused file
 * or Ctrl-C leaves the snapshot as it was.
 */
export async function openRuleWriter(file: string, now: Date): Promise<RuleWriter> {
  if (!existsSync(file) || statSync(file).size === 0) {
    const sink = await openSnapshotWriter(file, { force: existsSync(file) });
    await sink.finish({ as_of: null, source: "coverage data import (Medicare rules only)" });
  }
  // Checked as every reader checks it (a snapshot of this release, not another SQLite file).
  (await openSnapshotDatabase(file)).db.close();
  const { DatabaseSync } = await loadSqlite();
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file);
    db.exec("PRAGMA busy_timeout = 5000");
  } catch (err) {
    throw new UsageError(
      `cannot write ${file} (${(err as Error).message})`,
      "Check that it is writable.",
    );
  }
  return new SqliteRuleWriter(db, now);
}

const INSERT = {
  ptp: "INSERT INTO ptp_edit VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  mue: "INSERT INTO mue VALUES (?, ?, ?, ?, ?)",
  aoc: "INSERT INTO aoc_edit VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  pfs: "INSERT INTO pfs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  gpci: "INSERT INTO gpci VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  dmepos: "INSERT INTO dmepos_fee VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  pa: "INSERT INTO prior_auth VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
} as const;

class SqliteRuleWriter implements RuleWriter {
  readonly #db: DatabaseSync;
  readonly #now: Date;
  readonly #texts = new Map<string, number>();
  readonly #insert = new Map<string, StatementSync>();
  #textInsert: StatementSync;
  #release = 0;
  #done = false;

  constructor(db: DatabaseSync, now: Date) {
    this.#db = db;
    this.#now = now;
    db.exec("BEGIN IMMEDIATE");
    db.exec(MEDICARE_TABLES);
    for (const name of MEDICARE_INDEX_NAMES) db.exec(`DROP INDEX IF EXISTS ${name}`);
    for (const row of db.prepare("SELECT id, text FROM rule_text").all())
      this.#texts.set(row.text as string, Number(row.id));
    this.#textInsert = db.prepare("INSERT INTO rule_text (id, text) VALUES (?, ?)");
    for (const [kind, sql] of Object.entries(INSERT)) this.#insert.set(kind, db.prepare(sql));
  }

  #text(text: string): number {
    let id = this.#texts.get(text);
    if (id === undefined) {
      id = this.#texts.size + 1;
      this.#textInsert.run(id, text);
      this.#texts.set(text, id);
    }
    return id;
  }

  begin(r: Omit<RuleRelease, "rows" | "odd_rows">): void {
    // The slot a file fills: a PTP part per setting and program, an MUE table per setting and
    // program, an AOC file per program, one PFS / GPCI / DMEPOS file, a prior-authorization list per file name.
    const slot =
      r.kind === "pa"
        ? this.#db
            .prepare("SELECT id FROM rule_release WHERE kind = 'pa' AND release = ?")
            .all(r.release)
        : this.#db
            .prepare(
              "SELECT id FROM rule_release WHERE kind = ? AND setting = ? AND program = ? AND part = ?",
            )
            .all(r.kind, r.setting, r.program, r.part);
    const table = RULE_TABLE[r.kind];
    for (const { id } of slot) {
      this.#db.prepare(`DELETE FROM ${table} WHERE release = ?`).run(Number(id));
      this.#db.prepare("DELETE FROM rule_release WHERE id = ?").run(Number(id));
    }
    const result = this.#db
      .prepare(
        "INSERT INTO rule_release (kind, setting, program, release, part, file, rows, odd_rows, effective, imported_at, rules_version) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?)",
      )
      .run(
        r.kind,
        r.setting,
        r.program,
        r.release,
        r.part,
        r.file,
        r.effective === null ? null : dateNumber(r.effective),
        this.#now.toISOString(),
        MEDICARE_RULES_VERSION,
      );
    this.#release = Number(result.lastInsertRowid);
  }

  add(row: RuleRow): void {
    const rel = this.#release;
    const insert = this.#insert.get(row.kind) as StatementSync;
    switch (row.kind) {
      case "ptp":
        insert.run(
          rel,
          row.c1,
          row.c2,
          row.pre ? 1 : 0,
          dateNumber(row.eff),
          row.del === null ? null : dateNumber(row.del),
          row.mod,
          this.#text(row.why),
        );
        return;
      case "mue":
        insert.run(rel, row.code, row.value, row.mai, this.#text(row.why));
        return;
      case "aoc": {
        const day = (d: string | null) => (d === null ? null : dateNumber(d));
        insert.run(
          rel,
          row.addOn,
          row.primary,
          row.type,
          dateNumber(row.eff),
          day(row.del),
          day(row.addOnDel),
          day(row.primaryDel),
          this.#text(row.notes),
        );
        return;
      }
      case "pfs":
        insert.run(
          rel,
          row.code,
          row.mod,
          row.status,
          row.global,
          row.pctc,
          row.work,
          row.nfPe,
          row.nfNa ? 1 : 0,
          row.fPe,
          row.fNa ? 1 : 0,
          row.mp,
          row.nfTotal,
          row.fTotal,
          row.cf,
        );
        return;
      case "gpci":
        insert.run(rel, row.mac, row.state, row.locality, row.name, row.work, row.pe, row.mp);
        return;
      case "dmepos":
        insert.run(rel, row.code, row.mod, row.mod2, row.state, row.nr, row.r, row.juris, row.catg);
        return;
      case "pa":
        insert.run(
          rel,
          row.code,
          row.program,
          row.category,
          row.states,
          dateNumber(row.from),
          row.to === null ? null : dateNumber(row.to),
          row.source,
        );
        return;
    }
  }

  end(rows: number, oddRows: number): void {
    this.#db
      .prepare("UPDATE rule_release SET rows = ?, odd_rows = ? WHERE id = ?")
      .run(rows, oddRows, this.#release);
  }

  commit(): void {
    this.#db.exec(MEDICARE_INDEXES);
    this.#db.exec("COMMIT");
    this.#done = true;
    this.#db.close();
  }

  rollback(): void {
    if (this.#done) return;
    this.#done = true;
    try {
      this.#db.exec("ROLLBACK");
    } finally {
      this.#db.close();
    }
  }
}
