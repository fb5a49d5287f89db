import type { DatabaseSync, SQLOutputValue, StatementSync } from "node:sqlite";
import type {
  AddOnEdit,
  DmeposFee,
  GpciEntry,
  MedicareRuleSource,
  MueEntry,
  NcciProgram,
  PfsEntry,
  PriorAuthEntry,
  PtpEdit,
  RuleRelease,
} from "../domain/medicare-edits.js";
import { numberDate } from "./medicare-schema.js";
import { BUSY_TIMEOUT_MS } from "./store.js";
import { isSqliteFile, loadSqlite } from "./sqlite.js";

type Row = Record<string, SQLOutputValue>;

const date = (v: SQLOutputValue | undefined) =>
  v === null || v === undefined ? null : numberDate(Number(v));

/**
 * Medicare's rules in a snapshot, read through a connection of their own; undefined when the
 * file is not a snapshot or holds none (`data import edits|fees|pa` was never run on it).
 */
export async function openMedicareRules(
  file: string | undefined,
): Promise<(MedicareRuleSource & { close(): void }) | undefined> {
  if (file === undefined || !isSqliteFile(file)) return undefined;
  const { DatabaseSync } = await loadSqlite();
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const has = db
    .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'rule_release'")
    .get();
  if (!has) {
    db.close();
    return undefined;
  }
  return new SnapshotRules(db);
}

class SnapshotRules implements MedicareRuleSource {
  readonly #db: DatabaseSync;
  readonly #releases = new Map<number, RuleRelease>();
  readonly #texts = new Map<number, string>();
  readonly #statements = new Map<string, StatementSync>();
  /** Snapshots whose rules were imported before the add-on code edits (rules version 1) lack the table. */
  readonly #hasAoc: boolean;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#hasAoc =
      db
        .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'aoc_edit'")
        .get() !== undefined;
    for (const r of db.prepare("SELECT * FROM rule_release ORDER BY id").all())
      this.#releases.set(Number(r.id), {
        kind: r.kind as RuleRelease["kind"],
        setting: r.setting as string,
        program: r.program as NcciProgram,
        release: r.release as string,
        part: Number(r.part),
        file: r.file as string,
        rows: Number(r.rows),
        odd_rows: Number(r.odd_rows),
        effective: date(r.effective),
      });
  }

  /** A statement prepared once (a check asks the same questions for every claim). */
  #sql(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.#db.close();
  }

  #release(id: SQLOutputValue | undefined): RuleRelease {
    return this.#releases.get(Number(id)) as RuleRelease;
  }

  #text(id: SQLOutputValue | undefined): string {
    const n = Number(id);
    let t = this.#texts.get(n);
    if (t === undefined) {
      t = (this.#sql("SELECT text FROM rule_text WHERE id = ?").get(n)?.text as string) ?? "";
      this.#texts.set(n, t);
    }
    return t;
  }

  #ptp(r: Row): PtpEdit {
    const rel = this.#release(r.release);
    return {
      setting: rel.setting,
      program: rel.program,
      column1: r.column1 as string,
      column2: r.column2 as string,
      pre_1996: r.pre_1996 === 1,
      effective: date(r.effective) as string,
      deletion: date(r.deletion),
      modifier_indicator: Number(r.modifier) as 0 | 1 | 9,
      rationale: this.#text(r.rationale),
      release: rel.release,
    };
  }

  releases(): RuleRelease[] {
    return [...this.#releases.values()];
  }

  ptpEditsOf(code: string): PtpEdit[] {
    return this.#sql(
      "SELECT * FROM ptp_edit WHERE column1 = ? UNION ALL SELECT * FROM ptp_edit WHERE column2 = ? AND column1 <> ?",
    )
      .all(code, code, code)
      .map((r) => this.#ptp(r));
  }

  ptpEditsAmong(codes: readonly string[]): PtpEdit[] {
    const distinct = [...new Set(codes)];
    if (distinct.length < 2) return [];
    const marks = distinct.map(() => "?").join(", ");
    return this.#sql(`SELECT * FROM ptp_edit WHERE column1 IN (${marks}) AND column2 IN (${marks})`)
      .all(...distinct, ...distinct)
      .map((r) => this.#ptp(r));
  }

  mue(code: string): MueEntry[] {
    return this.#sql("SELECT * FROM mue WHERE code = ?")
      .all(code)
      .map((r) => {
        const rel = this.#release(r.release);
        return {
          setting: rel.setting,
          program: rel.program,
          code: r.code as string,
          value: Number(r.value),
          mai: r.mai === null ? null : (Number(r.mai) as 1 | 2 | 3),
          rationale: this.#text(r.rationale),
          release: rel.release,
          effective: rel.effective,
        };
      });
  }

  #aoc(r: Row): AddOnEdit {
    const rel = this.#release(r.release);
    return {
      program: rel.program,
      add_on: r.add_on as string,
      primary: (r.primary_code as string | null) ?? null,
      type: Number(r.type) as 1 | 2 | 3,
      effective: date(r.effective) as string,
      deletion: date(r.deletion),
      add_on_deletion: date(r.add_on_deletion),
      primary_deletion: date(r.primary_deletion),
      notes: this.#text(r.notes),
      release: rel.release,
    };
  }

  addOnEditsOf(code: string): AddOnEdit[] {
    if (!this.#hasAoc) return [];
    return this.#sql(
      "SELECT * FROM aoc_edit WHERE add_on = ? UNION ALL SELECT * FROM aoc_edit WHERE primary_code = ? AND add_on <> ?",
    )
      .all(code, code, code)
      .map((r) => this.#aoc(r));
  }

  addOnEditsFor(codes: readonly string[]): AddOnEdit[] {
    const distinct = [...new Set(codes)];
    if (!this.#hasAoc || !distinct.length) return [];
    const marks = distinct.map(() => "?").join(", ");
    return this.#sql(`SELECT * FROM aoc_edit WHERE add_on IN (${marks})`)
      .all(...distinct)
      .map((r) => this.#aoc(r));
  }

  pfs(code: string): PfsEntry[] {
    return this.#sql("SELECT * FROM pfs WHERE code = ? ORDER BY modifier")
      .all(code)
      .map((r) => {
        const rel = this.#release(r.release);
        return {
          setting: rel.setting,
          code: r.code as string,
          modifier: r.modifier as string,
          status: r.status as string,
          global_days: r.global_days as string,
          pctc: r.pctc as string,
          work_rvu: Number(r.work_rvu),
          non_facility_pe_rvu: Number(r.nf_pe_rvu),
          non_facility_na: r.nf_na === 1,
          facility_pe_rvu: Number(r.f_pe_rvu),
          facility_na: r.f_na === 1,
          mp_rvu: Number(r.mp_rvu),
          non_facility_total: Number(r.nf_total),
          facility_total: Number(r.f_total),
          conversion_factor: Number(r.conversion_factor),
          release: rel.release,
          effective: rel.effective,
        };
      });
  }

  gpci(): GpciEntry[] {
    return this.#sql("SELECT * FROM gpci")
      .all()
      .map((r) => ({
        mac: r.mac as string,
        state: r.state as string,
        locality: r.locality as string,
        name: r.name as string,
        work: Number(r.work),
        pe: Number(r.pe),
        mp: Number(r.mp),
        release: this.#release(r.release).release,
      }));
  }

  dmepos(code: string): DmeposFee[] {
    return this.#sql("SELECT * FROM dmepos_fee WHERE code = ? ORDER BY modifier, modifier2, state")
      .all(code)
      .map((r) => {
        const rel = this.#release(r.release);
        return {
          code: r.code as string,
          modifier: r.modifier as string,
          modifier2: r.modifier2 as string,
          state: r.state as string,
          non_rural: r.non_rural === null ? null : Number(r.non_rural),
          rural: r.rural === null ? null : Number(r.rural),
          jurisdiction: r.jurisdiction as string,
          category: r.category as string,
          release: rel.release,
          effective: rel.effective,
        };
      });
  }

  priorAuth(code: string): PriorAuthEntry[] {
    return this.#sql('SELECT * FROM prior_auth WHERE code = ? ORDER BY program, "from"')
      .all(code)
      .map((r) => ({
        code: r.code as string,
        program: r.program as string,
        category: r.category as string,
        states: (r.states as string).split(";").filter(Boolean),
        from: date(r.from) as string,
        to: date(r.to),
        source: r.source as string,
        release: this.#release(r.release).release,
      }));
  }
}
