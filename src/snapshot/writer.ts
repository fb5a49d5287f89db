import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { InterruptedError, UsageError } from "../errors.js";
import { checkOutputPath, createTempOutput, type TempOutput } from "../files/temp-output.js";
import { makeCodeKey } from "../engine/codes.js";
import { groupCodeLinks } from "../engine/shape.js";
import { buildTextIndex } from "../engine/text-index.js";
import type { PolicyRecord } from "../engine/db.js";
import { checkPolicyFields, jsonPath } from "../dataset/check.js";
import type { DatasetCode, DatasetLob, DatasetPayer, DatasetPolicy } from "../dataset/schema.js";
import type { DatasetMeta, DatasetSink, DatasetSummary } from "../dataset/sink.js";
import { VERSION } from "../cli/version.js";
import {
  GIVEN,
  SNAPSHOT_FORMAT,
  SNAPSHOT_INDEXES,
  SNAPSHOT_TABLES,
  SNAPSHOT_VERSION,
} from "./schema.js";
import { dayNumber, OPEN_END } from "./days.js";
import { bytesOf, narrowCounts } from "./counts.js";
import { unpackCodeLinks } from "./packed-links.js";
import { loadSqlite } from "./sqlite.js";

export interface SnapshotWriterOptions {
  /** Replace an existing file (else refused, exit 2). */
  force?: boolean;
  /** Called now and then while records come in and while indexing (for a TTY progress line). */
  onProgress?: (stage: string, summary: DatasetSummary) => void;
  /** The run's Ctrl-C: checked between the steps of `finish` (a signal ends the process anyway). */
  signal?: AbortSignal | undefined;
}

/** What a JSON producer can add to DatasetMeta, so that `data export` writes the file back exactly. */
export interface SnapshotMeta extends DatasetMeta {
  /** Whether `as_of` was written at all (absent and null export differently); default yes. */
  asOfGiven?: boolean;
  /** Whether the optional top-level `codes` list was written; default yes. */
  codesGiven?: boolean;
  /** Writes tables of its own (the pull's history) into the snapshot before it is committed. */
  addTables?: (db: DatabaseSync) => void;
  /** Runs once the tables are committed, before the file is put in place (ATTACH needs no open transaction). */
  afterCommit?: (db: DatabaseSync) => void;
}

/** A DatasetSink that writes a snapshot file. */
export interface SnapshotSink extends DatasetSink {
  finish(meta: SnapshotMeta, alsoCommit?: () => void): Promise<DatasetSummary>;
}

const MAX_PROBLEMS = 5;

/**
 * A DatasetSink writing a snapshot: records go straight into a temporary database beside the
 * target (constant memory but for the ids that references are checked against); `finish`
 * checks references, orders versions by id, builds the indexes and renames it into place.
 */
export async function openSnapshotWriter(
  file: string,
  options: SnapshotWriterOptions = {},
): Promise<SnapshotSink> {
  const target = checkOutputPath(file, options.force);
  const { DatabaseSync } = await loadSqlite();
  const temp = createTempOutput(target, {
    force: options.force,
    signal: options.signal,
    shown: file,
  });
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(temp.path);
  } catch (err) {
    temp.discard();
    throw new UsageError(
      `cannot write ${file} (${(err as Error).message})`,
      "Check that the output folder exists and is writable.",
    );
  }
  return new SnapshotWriter(db, temp, options);
}

class SnapshotWriter implements SnapshotSink {
  readonly #counts: DatasetSummary = {
    payers: 0,
    lobs: 0,
    codes: 0,
    policies: 0,
    applicabilityLinks: 0,
    codeLinks: 0,
  };
  readonly #payerIds = new Set<string>();
  readonly #lobIds = new Set<string>();
  readonly #policyIds = new Set<string>();
  /** References to check once everything is in: [path, what, id]. */
  readonly #pendingPayers: Array<[PropertyKey[], string]> = [];
  readonly #pendingLobs: Array<[PropertyKey[], string]> = [];
  readonly #problems: string[] = [];
  readonly #keys = new Map<string, Map<string, string>>();
  readonly #insert: Record<
    "payer" | "lob" | "code" | "version" | "applicability" | "packed",
    StatementSync
  >;
  readonly #codeLinks: BatchInsert;
  #done = false;
  #lastProgress = 0;

  constructor(
    private readonly db: DatabaseSync,
    private readonly temp: TempOutput,
    private readonly options: SnapshotWriterOptions,
  ) {
    // The file is a temporary one until renamed: a crash leaves nothing to recover, so no journal.
    db.exec(
      "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -32000; PRAGMA temp_store = FILE;",
    );
    db.exec(SNAPSHOT_TABLES);
    db.exec("BEGIN");
    this.#insert = {
      payer: db.prepare("INSERT INTO payer VALUES (?, ?, ?)"),
      lob: db.prepare("INSERT INTO lob VALUES (?, ?, ?, ?, ?)"),
      code: db.prepare("INSERT INTO code VALUES (?, ?, ?, ?, ?)"),
      version: db.prepare(
        "INSERT INTO version VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      applicability: db.prepare("INSERT INTO applicability VALUES (?, ?, ?, ?, ?)"),
      packed: db.prepare("INSERT INTO version_code_links VALUES (?, ?)"),
    };
    this.#codeLinks = new BatchInsert(db, "code_link", 7);
  }

  #problem(at: PropertyKey[], message: string): void {
    if (this.#problems.length < MAX_PROBLEMS) this.#problems.push(`${jsonPath(at)}: ${message}`);
  }

  #progress(stage: string, force = false): void {
    if (!this.options.onProgress) return;
    const now = Date.now();
    if (!force && now - this.#lastProgress < 200) return;
    this.#lastProgress = now;
    this.options.onProgress(stage, { ...this.#counts });
  }

  /** The code's key, normalised once per spelling (a catalogue repeats a few thousand codes). */
  #key(system: DatasetCode["code_system"], code: string): string {
    let bySpelling = this.#keys.get(system);
    if (!bySpelling) this.#keys.set(system, (bySpelling = new Map()));
    let key = bySpelling.get(code);
    if (key === undefined) bySpelling.set(code, (key = makeCodeKey(system, code)));
    return key;
  }

  addPayer(payer: DatasetPayer): void {
    const i = this.#counts.payers++;
    if (this.#payerIds.has(payer.payer_id))
      this.#problem(["payers", i, "payer_id"], `duplicate payer_id '${payer.payer_id}'`);
    this.#payerIds.add(payer.payer_id);
    this.#insert.payer.run(i, payer.payer_id, payer.display_name);
  }

  addLob(lob: DatasetLob): void {
    const i = this.#counts.lobs++;
    if (this.#lobIds.has(lob.lob_id))
      this.#problem(["lobs", i, "lob_id"], `duplicate lob_id '${lob.lob_id}'`);
    this.#lobIds.add(lob.lob_id);
    if (!this.#payerIds.has(lob.payer_id))
      this.#pendingPayers.push([["lobs", i, "payer_id"], lob.payer_id]);
    this.#insert.lob.run(i, lob.lob_id, lob.payer_id, lob.lob, lob.state);
  }

  addCode(code: DatasetCode): void {
    const i = this.#counts.codes++;
    this.#insert.code.run(
      i,
      code.code_system,
      code.code,
      code.description,
      this.#key(code.code_system, code.code),
    );
  }

  addPolicy(p: DatasetPolicy): void {
    const i = this.#counts.policies++;
    if (this.#policyIds.has(p.policy_id))
      this.#problem(["policies", i, "policy_id"], `duplicate policy_id '${p.policy_id}'`);
    this.#policyIds.add(p.policy_id);
    checkPolicyFields(p, i, (at, message) => this.#problem(at, message));
    // Producers may hand over input objects (defaults not applied): absent is kept apart from null.
    const input = p as Partial<DatasetPolicy>;
    const given =
      (input.criteria_text !== undefined ? GIVEN.criteria : 0) |
      (input.files !== undefined ? GIVEN.files : 0);
    this.#insert.version.run(
      i,
      p.policy_id,
      p.policy_id.slice(0, Math.max(0, p.policy_id.lastIndexOf("/"))),
      p.policy_number,
      p.title,
      p.effective_from_date,
      p.effective_to_date,
      p.file_url,
      p.file_type,
      p.listing_url,
      p.summary,
      p.criteria_text ?? null,
      p.files?.display ?? null,
      p.files?.text ?? null,
      given,
    );
    p.applicability.forEach((a, j) => {
      if (!this.#lobIds.has(a.lob_id))
        this.#pendingLobs.push([["policies", i, "applicability", j, "lob_id"], a.lob_id]);
      this.#insert.applicability.run(i, j, a.lob_id, a.from, a.to);
    });
    this.#counts.applicabilityLinks += p.applicability.length;
    // Each code link as a row (for indexes and analysts), and all of them once more, packed as
    // one JSON array of `[code_system, code, key, relationship, category]` (no category where
    // the dataset left it out): a version's links come back in one read and one JSON.parse.
    const packed: unknown[] = [];
    const insert = this.#codeLinks;
    for (let j = 0; j < p.codes.length; j++) {
      const c = p.codes[j] as DatasetPolicy["codes"][number];
      const category = (c as { category?: string | null }).category;
      const key = this.#key(c.code_system, c.code);
      insert.add(i, j, c.code_system, c.code, key, c.relationship, category ?? null);
      packed.push(
        category === undefined
          ? [c.code_system, c.code, key, c.relationship]
          : [c.code_system, c.code, key, c.relationship, category],
      );
    }
    this.#insert.packed.run(i, JSON.stringify(packed));
    this.#counts.codeLinks += p.codes.length;
    this.#progress("reading");
  }

  /** Between long steps: a signal is handled (it ends the process), and Ctrl-C stops here. */
  async #yield(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.options.signal?.aborted)
      throw new InterruptedError("interrupted; nothing was written");
  }

  async finish(meta: SnapshotMeta, alsoCommit?: () => void): Promise<DatasetSummary> {
    if (this.#done) throw new Error("snapshot writer already finished");
    try {
      for (const [at, id] of this.#pendingPayers)
        if (!this.#payerIds.has(id)) this.#problem(at, `unknown payer '${id}'`);
      for (const [at, id] of this.#pendingLobs)
        if (!this.#lobIds.has(id)) this.#problem(at, `unknown LOB '${id}'`);
      if (this.#problems.length)
        throw new UsageError(
          `bad dataset ${meta.source}`,
          "Fix the data (format: coverage-dataset version 1); nothing was written.",
          this.#problems,
        );
      this.#codeLinks.flush();
      this.#progress("indexing", true);
      await this.#index();
      this.#writeMeta(meta);
      meta.addTables?.(this.db);
      await this.#yield();
      this.db.exec("COMMIT");
      meta.afterCommit?.(this.db);
      await this.#yield();
      this.db.exec("PRAGMA journal_mode = DELETE");
      this.db.close();
      this.#done = true;
      // The snapshot and what goes beside it are put in place in one synchronous step.
      this.temp.commit();
      alsoCommit?.();
      return { ...this.#counts };
    } catch (err) {
      await this.abort();
      throw err;
    }
  }

  async #index(): Promise<void> {
    const { db } = this;
    // Positions: each version's place in policy_id order (BINARY collation of UTF-8 text is
    // code-point order, the engine's order of ids).
    db.exec(
      "INSERT INTO version_order SELECT row_number() OVER (ORDER BY policy_id) - 1, seq FROM version",
    );
    await this.#yield();
    for (const statement of SNAPSHOT_INDEXES.split(";").filter((s) => s.trim())) {
      db.exec(statement);
      await this.#yield();
    }
    this.#progress("text index", true);
    // The engine's own text index over every version, stored as postings: a `q` query reads
    // only its terms' rows, and scores them with the engine's BM25 (rules.md, Ordering).
    const docs: Array<Pick<PolicyRecord, "title" | "summary">> = [];
    for (const row of db
      .prepare(
        "SELECT v.title, v.summary FROM version_order o JOIN version v ON v.seq = o.version ORDER BY o.pos",
      )
      .iterate())
      docs.push({ title: row.title as string, summary: row.summary as string | null });
    await this.#yield();
    const index = buildTextIndex(docs as PolicyRecord[]);
    await this.#yield();
    // A term's postings as one row of three arrays: a query reads each of its terms in one
    // step, however many versions hold it (a code's description has words that most hold).
    const term = db.prepare("INSERT INTO term VALUES (?, ?, ?)");
    const postings = db.prepare("INSERT INTO posting_list VALUES (?, ?, ?, ?)");
    for (const [t, id] of index.terms) {
      const from = index.start[id] as number;
      const to = index.start[id + 1] as number;
      term.run(id, t, to - from);
      postings.run(
        id,
        bytesOf(index.docs.subarray(from, to)),
        bytesOf(narrowCounts(index.titleCounts.subarray(from, to))),
        bytesOf(narrowCounts(index.summaryCounts.subarray(from, to))),
      );
    }
    await this.#yield();
    await this.#writeCodeGroups();
    const meta = db.prepare("INSERT INTO meta VALUES (?, ?)");
    const posOfSeq = new Int32Array(this.#counts.policies);
    const seqOfPos = new Int32Array(this.#counts.policies);
    for (const row of db.prepare("SELECT pos, version FROM version_order").iterate()) {
      posOfSeq[Number(row.version)] = Number(row.pos);
      seqOfPos[Number(row.pos)] = Number(row.version);
    }
    meta.run("pos_of_seq", bytesOf(posOfSeq));
    meta.run("seq_of_pos", bytesOf(seqOfPos));
    await this.#writeCodePositions(posOfSeq);
    // What the candidate step scans without SQL: each version's dates as day numbers.
    const n = this.#counts.policies;
    const fromDays = new Int32Array(n);
    const toDays = new Int32Array(n);
    for (const row of db
      .prepare(
        "SELECT o.pos, v.effective_from_date AS f, v.effective_to_date AS t FROM version_order o JOIN version v ON v.seq = o.version",
      )
      .iterate()) {
      fromDays[Number(row.pos)] = dayNumber(row.f as string);
      toDays[Number(row.pos)] = row.t === null ? OPEN_END : dayNumber(row.t as string);
    }
    meta.run("from_days", bytesOf(fromDays));
    meta.run("to_days", bytesOf(toDays));
    // Each LOB's links with their periods, a row per linked LOB: triples (position, from day,
    // to day), positions ascending. A scope filter reads the rows of the LOBs it could match
    // (a state's and the nationwide ones), and its candidates are the versions with a link that
    // rule Filter 3 selects, not every version ever linked to the LOB.
    const lobLinks = db.prepare("INSERT INTO lob_links VALUES (?, ?)");
    let links: number[] = [];
    let lastLob = -1;
    const flushLob = () => {
      if (links.length) lobLinks.run(lastLob, bytesOf(Int32Array.from(links)));
      links = [];
    };
    for (const row of db
      .prepare(
        'SELECT l.seq AS lob, o.pos, a."from" AS f, a."to" AS t FROM applicability a JOIN lob l ON l.lob_id = a.lob_id JOIN version_order o ON o.version = a.version ORDER BY l.seq, o.pos, a.seq',
      )
      .iterate()) {
      const lob = Number(row.lob);
      if (lob !== lastLob) {
        flushLob();
        lastLob = lob;
      }
      links.push(
        Number(row.pos),
        dayNumber(row.f as string),
        row.t === null ? OPEN_END : dayNumber(row.t as string),
      );
    }
    flushLob();
    meta.run("title_terms", bytesOf(narrowCounts(index.titleLengths)));
    meta.run("summary_terms", bytesOf(narrowCounts(index.summaryLengths)));
    meta.run("title_total", index.titleTotal);
    meta.run("summary_total", index.summaryTotal);
  }

  /**
   * Each code key's versions as one array of positions (ascending, each once): a code search
   * reads its candidates in one step, not a row per version and a map from `seq` to position.
   */
  async #writeCodePositions(posOfSeq: Int32Array): Promise<void> {
    const insert = this.db.prepare("INSERT INTO code_positions VALUES (?, ?)");
    let key: string | null = null;
    let positions: number[] = [];
    let rows = 0;
    const flush = () => {
      if (key === null) return;
      const sorted = Int32Array.from(new Set(positions)).sort();
      insert.run(key, bytesOf(sorted));
      positions = [];
    };
    // In the order of the index on (key, version): no sort of the whole table.
    for (const row of this.db
      .prepare("SELECT key, version FROM code_link INDEXED BY code_link_key ORDER BY key")
      .iterate()) {
      if (row.key !== key) {
        flush();
        key = row.key as string;
      }
      positions.push(posOfSeq[Number(row.version)] as number);
      if (++rows % 200_000 === 0) await this.#yield();
    }
    flush();
    await this.#yield();
  }

  /**
   * Each version's code groups (rule Shapes), made with the engine's groupCodeLinks from the
   * whole catalogue (the last entry of a key wins, as in the in-memory catalogue): a page of
   * code groups then reads one row per version, not its links and then their descriptions.
   */
  async #writeCodeGroups(): Promise<void> {
    const { db } = this;
    const descriptions = new Map<string, string>();
    for (const row of db.prepare("SELECT key, description FROM code ORDER BY seq").iterate())
      descriptions.set(row.key as string, row.description as string);
    const insert = db.prepare("INSERT INTO version_code_groups VALUES (?, ?)");
    for (const row of db
      .prepare("SELECT version, code_links FROM version_code_links ORDER BY version")
      .iterate()) {
      const groups = groupCodeLinks(unpackCodeLinks(row.code_links as string), descriptions);
      insert.run(row.version as number, JSON.stringify(groups));
      if (Number(row.version) % 2000 === 1999) await this.#yield();
    }
  }

  #writeMeta(meta: SnapshotMeta): void {
    const series = this.db.prepare("SELECT count(DISTINCT series) AS n FROM version").get();
    const catalogue = this.db.prepare("SELECT count(DISTINCT key) AS n FROM code").get();
    const distinctCodes = this.db
      .prepare("SELECT count(*) AS n FROM (SELECT DISTINCT key FROM code_link)")
      .get();
    const put = this.db.prepare("INSERT INTO meta VALUES (?, ?)");
    const entries: Array<[string, string | number | null]> = [
      ["format", SNAPSHOT_FORMAT],
      ["format_version", SNAPSHOT_VERSION],
      ["as_of", meta.as_of],
      ["as_of_given", meta.asOfGiven === false ? 0 : 1],
      ["codes_given", meta.codesGiven === false ? 0 : 1],
      ["source", meta.source],
      ["written_by", `coverage ${VERSION}`],
      ["payers", this.#counts.payers],
      ["lobs", this.#counts.lobs],
      ["versions", this.#counts.policies],
      ["policies", Number(series?.n ?? 0)],
      ["applicability_links", this.#counts.applicabilityLinks],
      ["code_links", this.#counts.codeLinks],
      ["codes", Number(distinctCodes?.n ?? 0)],
      ["catalogue", this.#counts.codes],
      ["catalogue_keys", Number(catalogue?.n ?? 0)],
    ];
    for (const [k, v] of entries) put.run(k, v);
  }

  async abort(): Promise<void> {
    if (!this.#done) {
      this.#done = true;
      try {
        this.db.close();
      } catch {
        // Already closed.
      }
    }
    this.temp.discard();
  }
}

/**
 * Rows inserted many to a statement: each `run` of node:sqlite costs a crossing into C++ and
 * a VM step, so a batch of rows per call takes about two thirds of the time of a row per call.
 * Rows keep their order; a last partial batch waits for `flush`.
 */
class BatchInsert {
  static readonly ROWS = 32;
  readonly #values: SQLInputValue[] = [];
  readonly #one: StatementSync;
  readonly #many: StatementSync;
  readonly #width: number;

  constructor(db: DatabaseSync, table: string, width: number) {
    const row = `(${Array.from({ length: width }, () => "?").join(", ")})`;
    this.#width = width;
    this.#one = db.prepare(`INSERT INTO ${table} VALUES ${row}`);
    this.#many = db.prepare(
      `INSERT INTO ${table} VALUES ${Array.from({ length: BatchInsert.ROWS }, () => row).join(", ")}`,
    );
  }

  add(...row: SQLInputValue[]): void {
    this.#values.push(...row);
    if (this.#values.length === BatchInsert.ROWS * this.#width) {
      this.#many.run(...this.#values);
      this.#values.length = 0;
    }
  }

  /** Inserts the rows of a last, partial batch. */
  flush(): void {
    for (let at = 0; at < this.#values.length; at += this.#width)
      this.#one.run(...this.#values.slice(at, at + this.#width));
    this.#values.length = 0;
  }
}
