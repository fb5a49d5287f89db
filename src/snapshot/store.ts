import path from "node:path";
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from "node:sqlite";
import type { CodeGroup, PolicyFilter } from "../contract/index.js";
import { UsageError } from "../errors.js";
import type {
  CodeLinkRecord,
  Db,
  LinkRecord,
  LobRecord,
  Lookup,
  PolicyRecord,
  StoreIndex,
} from "../engine/db.js";
import { compileScope, hasScopeFilter, matchesScopeLob } from "../engine/links.js";
import type { CountArray, TextIndex } from "../engine/text-index.js";
import type { LoadedDataset } from "../dataset/load.js";
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "./schema.js";
import { BoundedMap } from "./bounded-map.js";
import { readCounts } from "./counts.js";
import { unpackCodeLinks } from "./packed-links.js";
import { SnapshotVersion, type VersionSource } from "./version.js";
import { dateOfDay, dayNumber, OPEN_END } from "./days.js";
import { loadSqlite } from "./sqlite.js";
import { isSnapshotLocked, lockedSnapshotError } from "./locked.js";

type Row = Record<string, SQLOutputValue>;

/** What a snapshot's `meta` table says about it. */
export type SnapshotMeta = Map<string, SQLOutputValue>;

/** How long a reader waits for a lock another process holds on a snapshot (cli.md: 5 s). */
export const BUSY_TIMEOUT_MS = 5000;
// The tables of every snapshot format (1 and 2): a file without them only claims to be one.
const CORE_TABLES = [
  "payer",
  "lob",
  "code",
  "version",
  "applicability",
  "code_link",
  "version_code_links",
];

/**
 * Opens a snapshot read-only and checks that this release can read it (exit 2 otherwise).
 * `older`: an older format is accepted too (`data info` and `data export` read only the
 * tables every format has, so a snapshot can always be turned back into its dataset).
 */
export async function openSnapshotDatabase(
  file: string,
  { older = false }: { older?: boolean } = {},
): Promise<{ db: DatabaseSync; meta: SnapshotMeta }> {
  const { DatabaseSync } = await loadSqlite();
  let db: DatabaseSync;
  let meta: SnapshotMeta;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    // A snapshot another process holds locked (an analyst's transaction, a copy being written)
    // is waited for, as long as this, before the read fails.
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const hasMeta = db
      .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
      .get();
    meta = new Map(
      !hasMeta
        ? []
        : db
            // The engine's arrays (blobs, megabytes at 5M links) are read when a query needs
            // them (#int32s), not at open.
            .prepare("SELECT key, value FROM meta WHERE typeof(value) <> 'blob'")
            .all()
            .map((r) => [r.key as string, r.value ?? null]),
    );
  } catch (err) {
    if (isSnapshotLocked(err)) throw lockedSnapshotError(file, BUSY_TIMEOUT_MS);
    throw new UsageError(
      `cannot read snapshot ${file} (${(err as Error).message})`,
      "Rebuild it with `coverage data build DATASET.json -o SNAPSHOT.db`.",
    );
  }
  if (meta.get("format") !== SNAPSHOT_FORMAT) {
    db.close();
    throw new UsageError(
      `${file} is not a coverage snapshot (an SQLite database of another kind)`,
      "Give --data a JSON dataset or a snapshot made by `coverage data build`.",
    );
  }
  const tables = new Set(
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name as string),
  );
  const lacking = CORE_TABLES.filter((t) => !tables.has(t));
  if (lacking.length) {
    db.close();
    throw new UsageError(
      `${file} is not a coverage snapshot (it claims to be one, but has no ${lacking.join(", ")} table${lacking.length > 1 ? "s" : ""})`,
      "Rebuild it with `coverage data build DATASET.json -o SNAPSHOT.db`.",
    );
  }
  const version = Number(meta.get("format_version"));
  if (!(version <= SNAPSHOT_VERSION)) {
    db.close();
    throw new UsageError(
      `snapshot ${file} has format version ${String(meta.get("format_version"))}, newer than this release reads (${SNAPSHOT_VERSION})`,
      "Upgrade coverage, or rebuild the snapshot with this release's `coverage data build`.",
    );
  }
  if (version < SNAPSHOT_VERSION && !older) {
    db.close();
    throw new UsageError(
      `snapshot ${file} has format version ${version}, older than this release queries (${SNAPSHOT_VERSION})`,
      `Rebuild it: \`coverage data export ${file} -o DATASET.json\`, then \`coverage data build DATASET.json -o ${file} --force\`.`,
    );
  }
  return { db, meta };
}

/**
 * A version's stored code groups, frozen: a record keeps them, and an answer hands them over as
 * they are (the local transport does not copy it), so nothing a command does to an answer can
 * change a later one.
 */
function parseCodeGroups(json: string | undefined): CodeGroup[] {
  const groups = JSON.parse(json ?? "[]") as CodeGroup[];
  for (const g of groups) {
    Object.freeze(g.codes);
    if (g.descriptions) Object.freeze(g.descriptions);
    Object.freeze(g);
  }
  return Object.freeze(groups) as CodeGroup[];
}

/** A snapshot as the engine's store: nothing but payers is read until asked for. */
export async function openSnapshot(file: string): Promise<LoadedDataset> {
  const abs = path.resolve(file);
  const { db, meta } = await openSnapshotDatabase(file);
  return {
    db: new SnapshotStore(db, meta, file).toDb(),
    file: abs,
    dir: path.dirname(abs),
    database: db,
  };
}

// Day numbers from here on are written back as dates by dateOfDay; earlier ones are read from
// their rows (rare, and dateOfDay does not pad a year below 1000).
const Y2000 = dayNumber("2000-01-01");

// Records made lately, so a request that reads one version several times makes it once;
// bounded, so a long-running server stays small.
const CACHE_SIZE = 50_000;
// Code descriptions remembered (a few hundred per page; a catalogue has tens of thousands).
const MAX_DESCRIPTIONS = 200_000;
// Postings of terms, or of codes, remembered: 4M of each (48 and 32 MB at most).
const MAX_POSTINGS = 4_000_000;
// LOB links remembered, as numbers (three per link): 16 MB, the links of ~1.3M.
const MAX_LOB_LINK_INTS = 4_000_000;

// A version's columns but its criteria (long, and read by the detail view only).
const VERSION_COLUMNS =
  "seq, policy_id, series, policy_number, title, effective_from_date, effective_to_date, file_url, file_type, listing_url, summary, file_display, file_text";

function int32s(value: SQLOutputValue | undefined, n: number): Int32Array {
  if (!(value instanceof Uint8Array) || value.byteLength !== n * 4) return new Int32Array(n);
  // A view where the blob's bytes are aligned for one (they are: node:sqlite copies each blob
  // into a buffer of its own), else a copy.
  if (value.byteOffset % 4 === 0) return new Int32Array(value.buffer, value.byteOffset, n);
  return new Int32Array(new Uint8Array(value).buffer);
}

/** Positions (ascending) of the rows' `seq` values. */
function positionsOf(rows: Row[], posOf: Int32Array): number[] {
  return rows.map((r) => posOf[Number(r.seq)] as number).sort((a, b) => a - b);
}

interface Posting {
  docs: Int32Array;
  titleCounts: CountArray;
  summaryCounts: CountArray;
}

/**
 * A `YYYY-MM-DD` day's number, or null for anything else (then no bound is drawn from it). A
 * day that does not exist (2026-02-30) orders as a string, not as the day it rolls over to, so
 * it is not one either; nor, here, a year below 1000 (dateOfDay does not pad it): a bound left
 * out only widens the candidates.
 */
function exactDayNumber(date: string | null | undefined): number | null {
  if (date == null || date.length !== 10) return null;
  const day = dayNumber(date);
  return dateOfDay(day) === date ? day : null;
}

/**
 * The day numbers a filter's dates are compared by. Rule Filter 2: a version's period must end
 * after `start` and begin by `end` (unbounded without a window). Rule Filter 3: the scope
 * filters may test a link whose period ends after `afterTo` and begins by `untilFrom` (the
 * window; all time for `retired: true`; else current as of today). An open end is OPEN_END,
 * after every day. A date that is not a real day is left out, never narrower than the rules,
 * and then `exact` is false.
 */
interface DayBounds {
  start: number;
  end: number;
  afterTo: number;
  untilFrom: number;
  exact: boolean;
}

function readDayBounds(filter: PolicyFilter, today: string): DayBounds {
  const window = filter.effective_date;
  if (window) {
    const start = exactDayNumber(window.start);
    const end = exactDayNumber(window.end);
    return {
      start: start ?? -OPEN_END,
      end: end ?? OPEN_END,
      afterTo: start ?? -OPEN_END,
      untilFrom: end ?? OPEN_END,
      exact: (start !== null || window.start == null) && (end !== null || window.end == null),
    };
  }
  const unbounded = { start: -OPEN_END, end: OPEN_END, afterTo: -OPEN_END, untilFrom: OPEN_END };
  if (filter.retired === true) return { ...unbounded, exact: true };
  const day = exactDayNumber(today);
  return { ...unbounded, afterTo: day ?? -OPEN_END, exact: day !== null };
}

class SnapshotStore implements StoreIndex {
  readonly count: number;
  #lobs: { list: LobRecord[]; byId: Map<string, LobRecord> } | undefined;
  readonly payers: Map<string, { payer_id: string; display_name: string }>;
  // By position: an array lookup per candidate (a Map's hashing showed in serve's profile).
  #cache: Array<PolicyRecord | undefined>;
  #cached = 0;
  readonly #sql: Record<string, StatementSync> = {};
  readonly #arraySql: Record<string, StatementSync> = {};
  #lengths: { title: CountArray; summary: CountArray; sums: Float64Array } | undefined;
  #linkedLobs: ReadonlySet<string> | undefined;
  #dayArrays: { from: Int32Array; to: Int32Array } | undefined;
  readonly #lobSeq = new Map<string, number>();
  // LOB links read lately, by LOB `seq` (bounded by their total size).
  readonly #lobLinkRows = new BoundedMap<number, Int32Array>(
    Number.POSITIVE_INFINITY,
    MAX_LOB_LINK_INTS,
  );
  #posOfSeq: Int32Array | undefined;
  #seqOfPos: Int32Array | undefined;

  constructor(
    private readonly db: DatabaseSync,
    private readonly meta: SnapshotMeta,
    /** The file, as the user named it (for messages). */
    private readonly file: string,
  ) {
    this.count = Number(meta.get("versions") ?? 0);
    // Grown as records are read: an array of every position took 0.5 ms at 100,000 versions,
    // at every open, for the 20 records of a page. (V8 keeps a few far-apart entries in a
    // dictionary, and many in a plain array again.)
    this.#cache = [];
    // Rows as arrays, each record made in one loop: every command reads these at open.
    this.payers = new Map();
    // Rows read by index, not destructured: a destructuring walks each row's iterator, which
    // cost more than SQLite's read of the 500 LOBs of the bench's snapshot.
    for (const row of this.#arrays("SELECT payer_id, display_name FROM payer ORDER BY seq")) {
      const id = row[0] as string;
      this.payers.set(id, { payer_id: id, display_name: row[1] as string });
    }
  }

  /** Every LOB, in lob_id order, read on first use (a search naming states reads only theirs). */
  get lobs(): LobRecord[] {
    return this.#allLobs().list;
  }

  get lobById(): Map<string, LobRecord> {
    return this.#allLobs().byId;
  }

  #allLobs(): { list: LobRecord[]; byId: Map<string, LobRecord> } {
    if (this.#lobs) return this.#lobs;
    const list: LobRecord[] = [];
    const byId = new Map<string, LobRecord>();
    // In lob_id order: SQLite's BINARY collation of UTF-8 text is code-point order.
    for (const lob of this.#readLobs(
      "SELECT seq, lob_id, payer_id, lob, state FROM lob ORDER BY lob_id",
    )) {
      list.push(lob);
      byId.set(lob.lob_id, lob);
    }
    return (this.#lobs = { list, byId });
  }

  /** LOB rows (seq, lob_id, payer_id, lob, state) as records, their `seq` remembered. */
  #readLobs(sql: string, ...params: SQLInputValue[]): LobRecord[] {
    const out: LobRecord[] = [];
    for (const row of this.#arrays(sql, ...params)) {
      const lobId = row[1] as string;
      const payerId = row[2] as string;
      this.#lobSeq.set(lobId, Number(row[0]));
      out.push({
        lob_id: lobId,
        payer_id: payerId,
        payer_name: this.payers.get(payerId)?.display_name ?? payerId,
        lob: row[3] as LobRecord["lob"],
        state: (row[4] as string | null) ?? null,
      });
    }
    return out;
  }

  /** An array stored in `meta` at build time, read on first use. */
  #int32s(key: string, n: number): Int32Array {
    return int32s(this.#blob(key), n);
  }

  /** Each version's position by its `seq` (the link tables' key), stored at build time. */
  #positions(): Int32Array {
    return (this.#posOfSeq ??= this.#int32s("pos_of_seq", this.count));
  }

  /** Each position's `seq`. */
  #seqs(): Int32Array {
    return (this.#seqOfPos ??= this.#int32s("seq_of_pos", this.count));
  }

  /** One of the engine's arrays stored in `meta` (undefined if absent). */
  #blob(key: string): SQLOutputValue | undefined {
    return this.#stmt("SELECT value FROM meta WHERE key = ?").get(key)?.value;
  }

  #stmt(sql: string): StatementSync {
    let s = this.#sql[sql];
    if (!s) this.#sql[sql] = s = this.db.prepare(sql);
    return s;
  }

  /**
   * The rows of a query as arrays of their columns: where a read returns thousands of rows
   * (links, postings), node:sqlite's making an object per row cost twice the read itself.
   * Node.js 22.13 to 22.15 lack setReturnArrays: there the objects' values, in column order.
   */
  #arrays(sql: string, ...params: SQLInputValue[]): SQLOutputValue[][] {
    let s = this.#arraySql[sql];
    if (!s) {
      s = this.db.prepare(sql);
      s.setReturnArrays?.(true);
      this.#arraySql[sql] = s;
    }
    const rows = s.all(...params) as unknown[];
    return s.setReturnArrays ? (rows as SQLOutputValue[][]) : (rows as Row[]).map(Object.values);
  }

  /** The version at a position in policy-id order, made from its row on first read. */
  versionAt(pos: number): PolicyRecord | undefined {
    const cached = this.#cache[pos];
    if (cached) return cached;
    if (!(pos >= 0 && pos < this.count)) return undefined;
    // Through version_order unless the whole map is read already (a page reads 20 versions;
    // the map is 4 bytes a version).
    const row = this.#seqOfPos
      ? this.#stmt(`SELECT ${VERSION_COLUMNS} FROM version WHERE seq = ?`).get(
          this.#seqOfPos[pos] as number,
        )
      : this.#stmt(
          `SELECT ${VERSION_COLUMNS} FROM version WHERE seq = (SELECT version FROM version_order WHERE pos = ?)`,
        ).get(pos);
    if (!row) throw this.#damaged();
    const version = new SnapshotVersion(this.#source, row);
    return this.#remember(pos, version);
  }

  #remember(pos: number, record: PolicyRecord): PolicyRecord {
    if (this.#cached >= CACHE_SIZE) this.#forget();
    if (!this.#cache[pos]) this.#cached++;
    this.#cache[pos] = record;
    return record;
  }

  #forget(): void {
    this.#cache = [];
    this.#cached = 0;
  }

  prefetch(positions: readonly number[], text = false): void {
    if (text) {
      this.#prefetchRows(positions);
      return;
    }
    // Counted first: once the records are kept, a server's request allocates nothing here.
    const cache = this.#cache;
    let n = 0;
    for (let i = 0; i < positions.length; i++) if (!cache[positions[i] as number]) n++;
    if (n < 2) return;
    const missing: number[] = [];
    for (let i = 0; i < positions.length; i++)
      if (!cache[positions[i] as number]) missing.push(positions[i] as number);
    if (this.#cached + missing.length > CACHE_SIZE) this.#forget();
    const seqs = this.#seqs();
    const links = this.#linksOf(missing.map((p) => seqs[p] as number));
    // What the filters read (dates and links); the rest of a row when something asks for it.
    // The dates from the day numbers stored at build time where they say the same (a day of
    // this century is one string only); the version table's pages were half of this read.
    const posOf = this.#positions();
    const days = this.#days();
    const unread: number[] = [];
    for (const pos of missing) {
      const from = days.from[pos] as number;
      const to = days.to[pos] as number;
      if (from < Y2000 || to < Y2000) {
        unread.push(pos);
        continue;
      }
      const seq = seqs[pos] as number;
      const row: Row = {
        seq,
        effective_from_date: dateOfDay(from),
        effective_to_date: to === OPEN_END ? null : dateOfDay(to),
      };
      this.#remember(pos, new SnapshotVersion(this.#source, row, links.get(seq) ?? []));
    }
    if (unread.length === 0) return;
    for (const cells of this.#arrays(
      "SELECT seq, effective_from_date, effective_to_date FROM version WHERE seq IN (SELECT value FROM json_each(?))",
      JSON.stringify(unread.map((p) => seqs[p])),
    )) {
      const seq = cells[0];
      const row: Row = {
        seq: Number(seq),
        effective_from_date: cells[1] ?? null,
        effective_to_date: cells[2] ?? null,
      };
      const version = new SnapshotVersion(this.#source, row, links.get(Number(seq)) ?? []);
      this.#remember(posOf[Number(seq)] as number, version);
    }
  }

  /**
   * The whole rows (but criteria) of these versions that are not read yet, in one query: a code
   * search ranks its hundreds of matches by their titles and summaries, and a page shows 20
   * versions, which were one query each. By position through version_order: no map from
   * positions to `seq` needs reading.
   */
  #prefetchRows(positions: readonly number[]): void {
    const missing = positions.filter((p) => {
      const v = this.#cache[p];
      return !(v instanceof SnapshotVersion && v.hasRow);
    });
    if (missing.length < 2) return;
    if (this.#cached + missing.length > CACHE_SIZE) this.#forget();
    for (const row of this.#stmt(
      `SELECT o.pos, ${VERSION_COLUMNS} FROM version_order o JOIN version v ON v.seq = o.version WHERE o.pos IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(missing))) {
      const pos = Number(row.pos);
      const known = this.#cache[pos];
      if (known instanceof SnapshotVersion) known.supplyRow(row);
      else this.#remember(pos, new SnapshotVersion(this.#source, row));
    }
  }

  /** The links of these versions (by `seq`), in one query; every one asked has a list. */
  #linksOf(seqs: readonly number[]): Map<number, LinkRecord[]> {
    const links = new Map(seqs.map((seq) => [seq, [] as LinkRecord[]]));
    for (const row of this.#arrays(
      'SELECT version, lob_id, "from", "to" FROM applicability WHERE version IN (SELECT value FROM json_each(?)) ORDER BY version, seq',
      JSON.stringify(seqs),
    )) {
      const lob = this.lobById.get(row[1] as string);
      if (lob)
        links
          .get(Number(row[0]))
          ?.push({ lob, from: row[2] as string, to: (row[3] as string | null) ?? null });
    }
    return links;
  }

  readPage(positions: readonly number[], include: { links: boolean; codeGroups: boolean }): void {
    this.#prefetchRows(positions);
    const versions: SnapshotVersion[] = [];
    for (const p of positions) {
      const v = this.#cache[p];
      if (v instanceof SnapshotVersion) versions.push(v);
    }
    const needLinks = include.links ? versions.filter((v) => !v.hasLinks) : [];
    if (needLinks.length > 1) {
      const links = this.#linksOf(needLinks.map((v) => v.seq));
      for (const v of needLinks) v.supplyLinks(links.get(v.seq) ?? []);
    }
    const needGroups = include.codeGroups ? versions.filter((v) => !v.hasCodeGroups) : [];
    if (needGroups.length > 1) {
      const bySeq = new Map(needGroups.map((v) => [v.seq, v]));
      for (const row of this.#arrays(
        "SELECT version, code_groups FROM version_code_groups WHERE version IN (SELECT value FROM json_each(?))",
        JSON.stringify([...bySeq.keys()]),
      ))
        bySeq.get(Number(row[0]))?.supplyCodeGroups(parseCodeGroups(row[1] as string));
    }
  }

  /**
   * A version the snapshot's indexes name but its table no longer holds: rows deleted in place
   * by another program (the indexes are made at build time). An error, never an answer from
   * half the data.
   */
  #damaged(): UsageError {
    return new UsageError(
      `snapshot ${this.file} is damaged: its indexes name versions its version table does not hold (was it changed by another program?)`,
      "Rebuild it with `coverage data build DATASET.json -o SNAPSHOT.db --force`, or pull or import it again.",
    );
  }

  readonly #source: VersionSource = {
    readRow: (seq) => {
      const row = this.#stmt(`SELECT ${VERSION_COLUMNS} FROM version WHERE seq = ?`).get(seq);
      if (!row) throw this.#damaged();
      return row;
    },
    readCriteria: (seq) =>
      (this.#stmt("SELECT criteria_text FROM version WHERE seq = ?").get(seq)?.criteria_text ??
        null) as string | null,
    readLinks: (seq) => this.#readLinks(seq),
    readCodes: (seq) => this.#readCodes(seq),
    readCodeGroups: (seq) => this.#readCodeGroups(seq),
  };

  #readLinks(seq: number): LinkRecord[] {
    return this.#linksOf([seq]).get(seq) ?? [];
  }

  #readCodes(seq: number): CodeLinkRecord[] {
    // Packed at build time, keys included: one read and one JSON.parse per version.
    const row = this.#stmt("SELECT code_links FROM version_code_links WHERE version = ?").get(seq);
    return unpackCodeLinks(row?.code_links as string | undefined);
  }

  #readCodeGroups(seq: number): CodeGroup[] {
    const row = this.#stmt("SELECT code_groups FROM version_code_groups WHERE version = ?").get(
      seq,
    );
    return parseCodeGroups(row?.code_groups as string | undefined);
  }

  readonly #descriptions = new Map<string, string | null>();
  // Remembered for a server's next requests: a code's positions, a term's postings (bounded by
  // the numbers kept too: a common code has a version in ten, a common word's list is ~30,000
  // long at 5M links).
  readonly #byCode = new BoundedMap<string, number[] | null>(2048, MAX_POSTINGS);
  readonly #termPostings = new BoundedMap<string, Posting | null>(1024, MAX_POSTINGS);

  settles(filter: PolicyFilter, today: string): boolean {
    // Exact when every date it compares is a day it can read: the dates of the versions and
    // links always are (the format checks them), the window's bounds and today must be (today
    // only where rule Filter 3 uses it).
    return (
      readDayBounds(filter, today).exact || (!filter.effective_date && !hasScopeFilter(filter))
    );
  }

  findCandidates(
    filter: PolicyFilter,
    today: string,
    within?: readonly number[],
  ): readonly number[] {
    const retired = filter.retired;
    const dated = retired != null || Boolean(filter.effective_date);
    // A bound not read as a day is left out: the candidates stay a superset.
    const bounds = readDayBounds(filter, today);
    const { start, end } = bounds;
    const { from, to } = dated ? this.#days() : { from: new Int32Array(0), to: new Int32Array(0) };
    const marked = hasScopeFilter(filter) ? this.#markScope(filter, bounds) : null;
    // Rules Filter 1 and 2 on the day numbers, and the scope marks: in one loop, no call per
    // position (this runs once per version of the snapshot when no code narrows first).
    const out: number[] = [];
    const n = within ? within.length : this.count;
    for (let i = 0; i < n; i++) {
      const p = within ? (within[i] as number) : i;
      if (marked !== null && marked[p] !== 1) continue;
      if (dated) {
        const t = to[p] as number;
        if (retired === true ? t === OPEN_END : retired === false && t !== OPEN_END) continue;
        if (t !== OPEN_END && !(t > start)) continue;
        if ((from[p] as number) > end) continue;
        // An empty period (a retirement notice) overlaps no window (rule Filter 2).
        if (filter.effective_date && t !== OPEN_END && t <= (from[p] as number)) continue;
      }
      out.push(p);
    }
    return out;
  }

  /**
   * The versions a scope filter can keep, marked by position: the LOBs that one link could
   * satisfy the scope fields with (rule Filter 4 decides, per LOB), then those LOBs' links that
   * rule Filter 3 could select. Only the rows of those LOBs are read (a state's and the
   * nationwide ones: a tenth of the links, on the bench's data).
   */
  #markScope(filter: PolicyFilter, { afterTo, untilFrom }: DayBounds): Uint8Array {
    const marked = new Uint8Array(this.count);
    const windowed = Boolean(filter.effective_date);
    const scope = compileScope(filter);
    const lobs: number[] = [];
    // A LOB of another state fails rule Filter 4 whatever else it is: with states named and the
    // LOBs not read yet, only the nationwide ones and those states' are read.
    const candidates =
      this.#lobs || !filter.states
        ? this.lobs
        : this.#readLobs(
            "SELECT seq, lob_id, payer_id, lob, state FROM lob WHERE state IS NULL OR state IN (SELECT value FROM json_each(?))",
            JSON.stringify(filter.states),
          );
    for (const lob of candidates)
      if (matchesScopeLob(lob, scope)) lobs.push(this.#lobSeq.get(lob.lob_id) as number);
    // Two comparisons per link, no call: this loop runs once per link of the LOBs in scope.
    for (const days of this.#readLobLinks(lobs))
      for (let k = 0; k < days.length; k += 3)
        if (
          (days[k + 2] as number) > afterTo &&
          (days[k + 1] as number) <= untilFrom &&
          // An empty link (a retirement notice's) overlaps no window (rule Filter 2).
          (!windowed || (days[k + 2] as number) > (days[k + 1] as number))
        )
          marked[days[k] as number] = 1;
    return marked;
  }

  /** These LOBs' links (triples of position, from day, to day), in one read. */
  #readLobLinks(lobs: readonly number[]): Int32Array[] {
    const out: Int32Array[] = [];
    const missing: number[] = [];
    for (const lob of lobs) {
      const known = this.#lobLinkRows.get(lob);
      if (known) out.push(known);
      else missing.push(lob);
    }
    if (missing.length === 0) return out;
    for (const row of this.#arrays(
      "SELECT lob, links FROM lob_links WHERE lob IN (SELECT value FROM json_each(?))",
      JSON.stringify(missing),
    )) {
      const lob = row[0];
      const blob = row[1];
      const size = blob instanceof Uint8Array ? blob.byteLength >> 2 : 0;
      const days = int32s(blob, size - (size % 3));
      this.#lobLinkRows.set(Number(lob), days, days.length);
      out.push(days);
    }
    return out;
  }

  /** Each version's dates as day numbers, by position (stored at build time). */
  #days(): { from: Int32Array; to: Int32Array } {
    return (this.#dayArrays ??= {
      from: this.#int32s("from_days", this.count),
      to: this.#int32s("to_days", this.count),
    });
  }

  listLinkedLobIds(): ReadonlySet<string> {
    if (!this.#linkedLobs) {
      // A LOB has a row of links only if it has a link.
      const linked = new Set<string>();
      // Every LOB's seq known (a search naming states may have read only theirs).
      this.#allLobs();
      const ids = new Map(Array.from(this.#lobSeq, ([id, i]) => [i, id]));
      for (const [lob] of this.#arrays("SELECT lob FROM lob_links")) {
        const id = ids.get(Number(lob));
        if (id !== undefined) linked.add(id);
      }
      this.#linkedLobs = linked;
    }
    return this.#linkedLobs;
  }

  findStartingBetween(from: string, to: string): readonly number[] {
    const days = this.#days().from;
    const lo = dayNumber(from);
    const hi = dayNumber(to);
    const out: number[] = [];
    for (let p = 0; p < this.count; p++) {
      const d = days[p] as number;
      if (d >= lo && d <= hi) out.push(p);
    }
    return out;
  }

  /** A term's postings, read once (a server's queries repeat their terms); null if none. */
  #postings(term: string): Posting | null {
    const known = this.#termPostings.get(term);
    if (known !== undefined) return known;
    const row = this.#stmt(
      "SELECT p.positions, p.title_counts, p.summary_counts FROM term t JOIN posting_list p ON p.term = t.id WHERE t.term = ?",
    ).get(term);
    let list: Posting | null = null;
    if (row) {
      const n = row.positions instanceof Uint8Array ? row.positions.byteLength >> 2 : 0;
      list = {
        docs: int32s(row.positions, n),
        titleCounts: readCounts(row.title_counts, n),
        summaryCounts: readCounts(row.summary_counts, n),
      };
    }
    this.#termPostings.set(term, list, list?.docs.length ?? 0);
    return list;
  }

  countPostings(terms: readonly string[]): number {
    let n = 0;
    for (const t of new Set(terms)) {
      const known = this.#termPostings.get(t);
      // The count stored with the term: asking the blob's length read the whole blob.
      n +=
        known !== undefined
          ? (known?.docs.length ?? 0)
          : Number(this.#stmt("SELECT postings FROM term WHERE term = ?").get(t)?.postings ?? 0);
    }
    return n;
  }

  loadTextIndex(terms: readonly string[]): TextIndex {
    const n = this.count;
    this.#lengths ??= {
      title: readCounts(this.#blob("title_terms"), n),
      summary: readCounts(this.#blob("summary_terms"), n),
      sums: new Float64Array(n),
    };
    const ids = new Map<string, number>();
    const lists: Posting[] = [];
    for (const t of new Set(terms)) {
      const list = this.#postings(t);
      if (!list) continue;
      ids.set(t, lists.length);
      lists.push(list);
    }
    const size = lists.reduce((s, l) => s + l.docs.length, 0);
    const start = new Int32Array(lists.length + 1);
    const docs = new Int32Array(size);
    const titleCounts = new Int32Array(size);
    const summaryCounts = new Int32Array(size);
    let at = 0;
    lists.forEach((list, id) => {
      start[id] = at;
      docs.set(list.docs, at);
      titleCounts.set(list.titleCounts, at);
      summaryCounts.set(list.summaryCounts, at);
      at += list.docs.length;
    });
    start[lists.length] = at;
    return {
      terms: ids,
      start,
      docs,
      titleCounts,
      summaryCounts,
      titleLengths: this.#lengths.title,
      summaryLengths: this.#lengths.summary,
      titleTotal: Number(this.meta.get("title_total") ?? 0),
      summaryTotal: Number(this.meta.get("summary_total") ?? 0),
      sums: this.#lengths.sums,
    };
  }

  /**
   * The descriptions of these keys that the catalogue has, read in one query. Remembered (a
   * catalogue has tens of thousands of entries at most): pages of code groups ask for the same
   * codes again and again.
   */
  #describe(keys: readonly string[]): Map<string, string> {
    const known = this.#descriptions;
    // Remembered descriptions (misses too) are bounded: a server asked for many distinct codes
    // starts again rather than growing.
    if (known.size > MAX_DESCRIPTIONS) known.clear();
    const out = new Map<string, string>();
    const missing = new Set<string>();
    for (const key of keys) {
      const d = known.get(key);
      if (d === undefined) missing.add(key);
      else if (d !== null) out.set(key, d);
    }
    if (missing.size === 0) return out;
    // The last entry of a key wins, as in the in-memory catalogue (compared here: sorting the
    // rows in SQL cost more than the read).
    const seqs = new Map<string, number>();
    for (const row of this.#arrays(
      "SELECT seq, key, description FROM code WHERE key IN (SELECT value FROM json_each(?))",
      JSON.stringify([...missing]),
    )) {
      const seq = row[0];
      const key = row[1];
      const description = row[2];
      if ((seqs.get(key as string) ?? -1) > Number(seq)) continue;
      seqs.set(key as string, Number(seq));
      out.set(key as string, description as string);
    }
    for (const key of missing) known.set(key, out.get(key) ?? null);
    return out;
  }

  #lookup<V>(get: (key: string) => V | undefined, size: number): Lookup<string, V> {
    return { get, has: (key) => get(key) !== undefined, size };
  }

  /** The engine's view of the snapshot. */
  toDb(): Db {
    const at = (pos: number) => this.versionAt(pos);
    const allLobs = () => this.#allLobs();
    const policies = new Proxy(new Array<PolicyRecord>(this.count), {
      get(target, prop, receiver) {
        if (typeof prop === "string") {
          const i = Number(prop);
          if (Number.isInteger(i) && i >= 0 && String(i) === prop) return at(i);
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const catalogueSize = Number(this.meta.get("catalogue_keys") ?? 0);
    const byPos = (rows: Row[]) =>
      positionsOf(rows, this.#positions()).map((p) => at(p) as PolicyRecord);
    return {
      asOf: (this.meta.get("as_of") as string | null) ?? null,
      payers: this.payers,
      // Read on first use: a search naming states reads only theirs (#markScope).
      get lobs() {
        return allLobs().list;
      },
      get lobById() {
        return allLobs().byId;
      },
      policies,
      byId: this.#lookup((id) => {
        const row = this.#stmt("SELECT seq FROM version WHERE policy_id = ?").get(id);
        return row ? at(this.#positions()[Number(row.seq)] as number) : undefined;
      }, this.count),
      byCode: this.#lookup(
        (key) => {
          // The lists are never changed, so a remembered one is handed out as it is.
          const known = this.#byCode.get(key);
          if (known !== undefined) return known ?? undefined;
          // Stored at build time: distinct, ascending.
          const blob = this.#stmt("SELECT positions FROM code_positions WHERE key = ?").get(
            key,
          )?.positions;
          const size = blob instanceof Uint8Array ? blob.byteLength >> 2 : 0;
          const list = size ? Array.from(int32s(blob, size)) : null;
          this.#byCode.set(key, list, size);
          return list ?? undefined;
        },
        Number(this.meta.get("codes") ?? 0),
      ),
      bySeries: this.#lookup(
        (series) => {
          const rows = this.#stmt("SELECT seq FROM version WHERE series = ?").all(series);
          return rows.length ? byPos(rows) : undefined;
        },
        Number(this.meta.get("policies") ?? 0),
      ),
      catalogue: {
        ...this.#lookup((key) => this.#describe([key]).get(key), catalogueSize),
        getMany: (keys) => this.#describe(keys),
      },
      index: this,
    };
  }
}
