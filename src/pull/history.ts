import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { DatasetLob, DatasetPolicy } from "../dataset/schema.js";
import type { DatasetMeta, DatasetSink, DatasetSummary } from "../dataset/sink.js";
import { storesText, type TextFileStore } from "../dataset/text-store.js";
import { UsageError } from "../errors.js";
import type { Row } from "../import/mcd/csv.js";
import { policyOf } from "../snapshot/export.js";
import { readChanges, writeChanges, type DocumentChange } from "../snapshot/change-table.js";
import { readRevisionNotes, writeCmsRecords } from "../snapshot/cms-record-table.js";
import { carryRuleTables } from "../snapshot/carry-rules.js";
import {
  hasFingerprints,
  writeFingerprints,
  type Fingerprint,
} from "../snapshot/fingerprint-table.js";
import { CmsRecords } from "./cms-records.js";
import { cmsVersionOf, seriesOf } from "./series.js";

type CodeLink = DatasetPolicy["codes"][number];
type LinkKey = DocumentChange["codes_gained"][number];

export interface HistoryOptions {
  /** The previous snapshot (a copy kept for the pull), read-only. */
  previous: DatabaseSync;
  /** Its file: the Medicare rule tables are copied from it into the new snapshot. */
  previousFile: string;
  /** The folder its `files.text` paths are relative to (the data folder). */
  previousFolder: string;
  /** `--force`: an export older than the snapshot's is taken anyway. */
  force: boolean;
  warn: (message: string) => void;
  /** CMS's revision records read from the same export (filled by the import's readers). */
  records: CmsRecords;
}

/**
 * A document's text with markup and white space taken out: what "alters no text" compares.
 * List markers go too (an `<ol>` made a `<ul>` numbers nothing differently in the words).
 */
export function plainWords(markdown: string | null | undefined): string {
  if (!markdown) return "";
  return markdown
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/^[ \t]*(?:[-+*]|\d+[.)]|[a-zA-Z][.)])[ \t]+/gm, " ")
    .replace(/:?-{3,}:?/g, " ")
    .replace(/[*_#>|`\\~]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** A document's words, as a hash: what two versions' texts are compared by. */
const wordsHash = (markdown: string | null | undefined) =>
  createHash("sha1").update(plainWords(markdown)).digest("base64");

const linkKey = (c: CodeLink) => `${c.code_system}\u0000${c.code}\u0000${c.relationship}`;
const keyLink = (k: string): LinkKey => {
  const [code_system = "", code = "", relationship = ""] = k.split("\u0000");
  return { code_system, code, relationship };
};

/** The code links of `after` not in `before` (system, code, relationship), in their order. */
function linksNotIn(after: readonly CodeLink[], before: readonly CodeLink[]): LinkKey[] {
  const had = new Set(before.map(linkKey));
  const out = new Set<string>();
  for (const c of after) if (!had.has(linkKey(c))) out.add(linkKey(c));
  return [...out].map(keyLink);
}

/** A hash of a long string (the fingerprints keep hashes, not the words). */
const hashOf = (text: string) => createHash("sha1").update(text).digest("base64");

/**
 * What "alters no text" and "the same code links" compare (fingerprint-table.ts): the hashes of
 * title, summary, criteria and text file (`textHash`, the stored file's), and the code links
 * with their categories as plain words, sorted.
 */
export function fingerprintOf(policy: DatasetPolicy, textHash: string): Fingerprint {
  const text = hashOf(
    [
      ...[policy.title, policy.summary, policy.criteria_text].map((t) => wordsHash(t)),
      textHash,
    ].join("\u0001"),
  );
  // A group's category is the same words for each of its codes: made plain once.
  const plain = new Map<string | null | undefined, string>();
  const words = (c: string | null | undefined) => {
    let w = plain.get(c);
    if (w === undefined) plain.set(c, (w = plainWords(c)));
    return w;
  };
  const codes = hashOf(
    policy.codes
      .map((c) => `${linkKey(c)}\u0000${words(c.category)}`)
      .sort()
      .join("\u0001"),
  );
  return { text, codes };
}

/** An earlier version: what the comparison needs, and the whole record when it is asked for. */
interface Known extends Fingerprint {
  policy_id: string;
  effective_from_date: string;
  effective_to_date: string | null;
  file_url: string;
  /** The version as the previous snapshot holds it (read on first use: a change's detail). */
  full: () => DatasetPolicy;
}

/**
 * A sink between the importer and the new snapshot that keeps the previous snapshot's history
 * (cli.md "The catalogue keeps its history"): each imported version is compared with the
 * versions its document had; a new one is added beside them, the earlier ones are carried
 * over (ending where CMS says, else when the new one takes effect), a document gone from the
 * export is retired on the export's date. What changed, document by document, is written to
 * the snapshot's `catalogue_change` table (change-table.ts) with the changes of earlier pulls.
 */
export class HistorySink implements DatasetSink, TextFileStore {
  readonly #inner: DatasetSink;
  readonly #options: HistoryOptions;
  readonly #oldVersions: StatementSync;
  readonly #oldVersion: StatementSync;
  readonly #oldLinks: StatementSync;
  readonly #oldCodes: StatementSync;
  /** The previous snapshot's versions of a series with their fingerprints (null: it has none). */
  readonly #oldPrints: StatementSync | null;
  /** The fingerprint of each version the new snapshot holds, by policy id. */
  readonly #prints = new Map<string, Fingerprint>();
  /** A hash of the plain words of each file the import stored, by its path (not the words: memory). */
  readonly #texts = new Map<string, string>();
  readonly #storedNames = new Set<string>();
  readonly #lobIds = new Set<string>();
  readonly #payerIds = new Set<string>();
  /** Documents of the new export, with the from-dates of their versions added now. */
  readonly #seen = new Map<string, string[]>();
  /** Old versions the export gave again (the import's record replaces them). */
  readonly #matched = new Set<string>();
  readonly #ids = new Set<string>();
  readonly #changes: DocumentChange[] = [];
  readonly #reported = new Set<string>();

  constructor(inner: DatasetSink, options: HistoryOptions) {
    this.#inner = inner;
    this.#options = options;
    const db = options.previous;
    this.#oldVersions = db.prepare(
      "SELECT * FROM version WHERE series = ? ORDER BY effective_from_date, policy_id",
    );
    this.#oldVersion = db.prepare("SELECT * FROM version WHERE seq = ?");
    this.#oldLinks = db.prepare(
      'SELECT lob_id, "from", "to" FROM applicability WHERE version = ? ORDER BY seq',
    );
    this.#oldCodes = db.prepare("SELECT code_links FROM version_code_links WHERE version = ?");
    this.#oldPrints = hasFingerprints(db)
      ? db.prepare(
          `SELECT v.seq, v.policy_id, v.effective_from_date, v.effective_to_date, v.file_url, f.text, f.codes
           FROM version v LEFT JOIN version_fingerprint f ON f.policy_id = v.policy_id
           WHERE v.series = ? ORDER BY v.effective_from_date, v.policy_id`,
        )
      : null;
  }

  /** Rows of Medicare rule tables copied from the previous snapshot (null: it had none). */
  carriedRows: number | null = null;

  /** The changes found so far (all of them once `finish` has run). */
  get changes(): readonly DocumentChange[] {
    return this.#changes;
  }

  addPayer(payer: Parameters<DatasetSink["addPayer"]>[0]): void {
    this.#payerIds.add(payer.payer_id);
    this.#inner.addPayer(payer);
  }
  addLob(lob: DatasetLob): void {
    this.#lobIds.add(lob.lob_id);
    this.#inner.addLob(lob);
  }
  addCode(code: Parameters<DatasetSink["addCode"]>[0]): void {
    this.#inner.addCode(code);
  }

  async storeText(name: string, markdown: string): Promise<string> {
    if (!storesText(this.#inner)) throw new Error("the snapshot sink keeps no text files");
    const stored = await this.#inner.storeText(name, markdown);
    this.#storedNames.add(path.basename(stored));
    this.#texts.set(stored, wordsHash(markdown));
    return stored;
  }

  #textOf(rel: string | undefined, fromOld: boolean): string {
    if (!rel) return "";
    if (!fromOld) return this.#texts.get(rel) ?? "";
    try {
      return wordsHash(readFileSync(path.join(this.#options.previousFolder, rel), "utf8"));
    } catch {
      return "";
    }
  }

  #readOldPolicy(row: Record<string, unknown>): DatasetPolicy {
    const links = this.#oldLinks.all(row.seq as number);
    const packed = this.#oldCodes.get(row.seq as number)?.code_links as string;
    return policyOf(row as never, links, packed ?? "[]") as unknown as DatasetPolicy;
  }

  #readOldPolicies(series: string): DatasetPolicy[] {
    return this.#oldVersions.all(series).map((row) => this.#readOldPolicy(row));
  }

  /** An old version compared from its own rows and text file (a snapshot without fingerprints). */
  #knownFromRows(policy: DatasetPolicy): Known {
    const print = fingerprintOf(policy, this.#textOf(policy.files?.text, true));
    return { ...policy, ...print, full: () => policy };
  }

  #readOld(series: string): Known[] {
    if (!this.#oldPrints) return this.#readOldPolicies(series).map((p) => this.#knownFromRows(p));
    return this.#oldPrints.all(series).map((row) => {
      const read = () =>
        this.#readOldPolicy(this.#oldVersion.get(row.seq as number) as Record<string, unknown>);
      if (row.text === null) return this.#knownFromRows(read());
      let policy: DatasetPolicy | undefined;
      const full = () => (policy ??= read());
      return {
        policy_id: row.policy_id as string,
        effective_from_date: row.effective_from_date as string,
        effective_to_date: (row.effective_to_date as string | null) ?? null,
        file_url: row.file_url as string,
        text: row.text as string,
        codes: row.codes as string,
        full,
      };
    });
  }

  #record(
    change: DocumentChange["change"],
    before: DatasetPolicy | undefined,
    after: DatasetPolicy | undefined,
    note: string | null = null,
  ): void {
    const shown = (after ?? before)!;
    this.#changes.push({
      as_of: null,
      id: seriesOf(shown.policy_id),
      policy_number: shown.policy_number,
      title: shown.title,
      change,
      old_version: before?.policy_id ?? null,
      new_version: after?.policy_id ?? null,
      cms_old_version: before ? cmsVersionOf(before.file_url) : null,
      cms_new_version: after ? cmsVersionOf(after.file_url) : null,
      codes_gained: change === "retired" ? [] : linksNotIn(after?.codes ?? [], before?.codes ?? []),
      codes_lost: change === "retired" ? [] : linksNotIn(before?.codes ?? [], after?.codes ?? []),
      reason: null,
      note,
    });
  }

  addPolicy(policy: DatasetPolicy): void {
    const series = seriesOf(policy.policy_id);
    const olds = this.#readOld(series);
    const froms = this.#seen.get(series) ?? [];
    this.#seen.set(series, froms);
    const now = fingerprintOf(policy, this.#textOf(policy.files?.text, false));
    // The export's id, or a later version kept under it as `<id>~N` by an earlier pull.
    const sameId = (o: Known) =>
      o.policy_id === policy.policy_id || o.policy_id.startsWith(`${policy.policy_id}~`);
    const unchanged = olds.find((o) => sameId(o) && o.text === now.text && o.codes === now.codes);
    const same = unchanged ?? olds.find((o) => o.policy_id === policy.policy_id);
    if (unchanged && same) {
      policy = { ...policy, policy_id: same.policy_id };
      // No revision (markup, white space, or what the model does not keep): the export's
      // record replaces the old one. An end date CMS gives it now retires the document; one
      // taken away puts it back in effect; one moved (CMS's date for a retirement the pull
      // had dated) is no change of the document.
      this.#matched.add(same.policy_id);
      const wasOpen = same.effective_to_date === null;
      const isOpen = policy.effective_to_date === null;
      if (wasOpen && !isOpen) this.#record("retired", same.full(), policy);
      else if (!wasOpen && isOpen) this.#record("revised", same.full(), policy);
      this.#emit(policy, now);
      return;
    }
    let added = policy;
    let note: string | null = null;
    if (same) {
      // A revision under the same effective date: both kept, the new one under `<id>~N`.
      const cmsOld = cmsVersionOf(same.file_url);
      const cmsNew = cmsVersionOf(policy.file_url);
      let n = 2;
      const taken = new Set(olds.map((o) => o.policy_id));
      while (taken.has(`${policy.policy_id}~${n}`) || this.#ids.has(`${policy.policy_id}~${n}`))
        n++;
      added = { ...policy, policy_id: `${policy.policy_id}~${n}` };
      if (cmsOld === cmsNew) {
        note = `CMS gave different content under the same version ${cmsNew ?? "(none)"} as ${policy.policy_id}: both kept, the new one as ${added.policy_id}`;
        this.#options.warn(`${series}: ${note}`);
      }
    }
    froms.push(policy.effective_from_date);
    const before =
      [...olds].reverse().find((o) => o.effective_from_date <= policy.effective_from_date) ??
      olds[olds.length - 1];
    if (!before) {
      if (!this.#reported.has(series)) this.#record("new", undefined, added);
    } else
      this.#record(
        before.text === now.text && before.codes !== now.codes ? "codes" : "revised",
        before.full(),
        added,
        note,
      );
    this.#reported.add(series);
    this.#emit(added, now);
  }

  #emit(policy: DatasetPolicy, print: Fingerprint): void {
    this.#ids.add(policy.policy_id);
    this.#prints.set(policy.policy_id, print);
    this.#inner.addPolicy(policy);
  }

  /** Carries an old version over, ended on `to` when given; its text file and LOBs with it. */
  async #carry(old: DatasetPolicy, to: string | null, print: Fingerprint): Promise<void> {
    const policy: DatasetPolicy = { ...old };
    if (to !== null) {
      policy.effective_to_date = to;
      policy.applicability = old.applicability.map((a) =>
        a.to === null || a.to > to ? { ...a, to: to < a.from ? a.from : to } : a,
      );
    }
    const rel = old.files?.text;
    if (rel && storesText(this.#inner)) {
      let body: string | undefined;
      try {
        body = readFileSync(path.join(this.#options.previousFolder, rel), "utf8");
      } catch {
        body = undefined;
      }
      const files = { ...old.files };
      delete files.text;
      if (body !== undefined) {
        let name = path.basename(rel);
        // The import stored a newer text under this name: the old one goes beside it.
        for (let n = 2; this.#storedNames.has(name); n++)
          name = path.basename(rel).replace(/(\.md)?$/, `~${n}$1`);
        files.text = await this.storeText(name, body);
      }
      policy.files = files;
    }
    for (const a of policy.applicability)
      if (!this.#lobIds.has(a.lob_id)) {
        const row = this.#options.previous
          .prepare("SELECT lob_id, payer_id, lob, state FROM lob WHERE lob_id = ?")
          .get(a.lob_id);
        if (row) this.addLob(row as unknown as DatasetLob);
      }
    this.#emit(policy, print);
  }

  async finish(
    meta: DatasetMeta & { addTables?: (db: DatabaseSync) => void },
  ): Promise<DatasetSummary> {
    const db = this.#options.previous;
    const previousAsOf =
      (db.prepare("SELECT value FROM meta WHERE key = 'as_of'").get()?.value as string | null) ??
      null;
    const asOf = meta.as_of;
    if (asOf && previousAsOf && asOf < previousAsOf && !this.#options.force)
      throw new UsageError(
        `the export is of ${asOf}, older than the snapshot's ${previousAsOf} (an export going back in time)`,
        "Nothing was changed. Pull again later, or add --force to take the older export anyway.",
      );
    const retireOn = asOf ?? new Date().toISOString().slice(0, 10);
    for (const row of db.prepare("SELECT payer_id, display_name FROM payer").all())
      if (!this.#payerIds.has(row.payer_id as string))
        this.addPayer({
          payer_id: row.payer_id as string,
          display_name: row.display_name as string,
        });
    // Only the documents with a version the export did not give again are read in full.
    const pending = new Set<string>();
    for (const row of db.prepare("SELECT series, policy_id FROM version").iterate())
      if (!this.#matched.has(row.policy_id as string)) pending.add(row.series as string);
    for (const series of [...pending].sort()) {
      const froms = this.#seen.get(series);
      let retired: DatasetPolicy | undefined;
      const prints = new Map(this.#readOld(series).map((k) => [k.policy_id, k]));
      for (const p of this.#readOldPolicies(series)) {
        if (this.#matched.has(p.policy_id)) continue;
        let to = p.effective_to_date;
        if (froms) {
          if (to === null) {
            const next = froms.filter((f) => f >= p.effective_from_date).sort()[0];
            if (next !== undefined) to = next;
          }
        } else if (to === null || to > retireOn) {
          // Gone from the export: retired on the export's date (never before it began).
          to = retireOn < p.effective_from_date ? p.effective_from_date : retireOn;
          retired = { ...p, effective_to_date: to };
        }
        await this.#carry(p, to, prints.get(p.policy_id)!);
      }
      if (retired) this.#record("retired", retired, undefined);
    }
    const notes = [...readRevisionNotes(db), ...this.#options.records.notes()];
    const noteOf = new Map(notes.map((n) => [`${n.series}|${n.cms_version}`, n]));
    for (const c of this.#changes) {
      c.as_of = asOf;
      const note = noteOf.get(`${c.id}|${c.change === "retired" ? "" : c.cms_new_version}`);
      c.reason = note ? (note.reason ?? note.explanation) : null;
    }
    const earlier = readChanges(db);
    const own = meta.addTables;
    return this.#inner.finish({
      ...meta,
      addTables: (out: DatabaseSync) => {
        own?.(out);
        writeChanges(out, [...earlier, ...this.#changes]);
        writeCmsRecords(out, notes, this.#options.records.futureRetire());
        writeFingerprints(out, this.#prints);
      },
      // Edits, fees and prior-authorization lists are imported by hand (some only behind CMS's
      // licence page): the new snapshot keeps them, inside the same atomic write.
      afterCommit: (out: DatabaseSync) => {
        this.carriedRows = carryRuleTables(out, this.#options.previousFile);
      },
    } as DatasetMeta);
  }

  async abort(): Promise<void> {
    await this.#inner.abort();
  }
}

/** What the pull needs of the history: the sink's wrapper, and what it found once done. */
export interface PullHistory {
  wrap: (sink: DatasetSink) => DatasetSink;
  /** The tables of CMS's revision records the import reads for the pull. */
  readers: Record<string, (row: Row) => void>;
  /** The changes the pull found (after the import); empty before. */
  changes: () => readonly DocumentChange[];
  /** The previous snapshot's date. */
  previousAsOf: string | null;
  /** Rows of Medicare rule tables carried from the previous snapshot (null: it had none). */
  carriedRows: () => number | null;
  close: () => void;
}

/**
 * What the pull wraps the import's sink with: CMS's revision records always, and with a
 * previous snapshot (a copy the pull keeps) its history, carried into the new one.
 */
export async function openPullHistory(
  previous: string | undefined,
  previousFolder: string,
  force: boolean,
  warn: (message: string) => void,
): Promise<PullHistory> {
  const records = new CmsRecords();
  if (previous === undefined)
    return {
      wrap: (inner) => withCmsRecords(inner, records),
      readers: records.readers(),
      changes: () => [],
      previousAsOf: null,
      carriedRows: () => null,
      close: () => undefined,
    };
  const { DatabaseSync } = await (await import("../snapshot/sqlite.js")).loadSqlite();
  const db = new DatabaseSync(previous, { readOnly: true });
  const previousAsOf =
    (db.prepare("SELECT value FROM meta WHERE key = 'as_of'").get()?.value as string | null) ??
    null;
  let sink: HistorySink | undefined;
  return {
    wrap: (inner) =>
      (sink = new HistorySink(inner, {
        previous: db,
        previousFile: previous,
        previousFolder,
        force,
        warn,
        records,
      })),
    readers: records.readers(),
    changes: () => sink?.changes ?? [],
    previousAsOf,
    carriedRows: () => sink?.carriedRows ?? null,
    close: () => db.close(),
  };
}

/**
 * A first pull's sink: the import's, with CMS's revision records and the versions'
 * fingerprints (for the next pull's comparison) written beside.
 */
function withCmsRecords(inner: DatasetSink, records: CmsRecords): DatasetSink {
  const texts = new Map<string, string>();
  const prints = new Map<string, Fingerprint>();
  const sink: DatasetSink & Partial<TextFileStore> = {
    addPayer: (p) => inner.addPayer(p),
    addLob: (l) => inner.addLob(l),
    addCode: (c) => inner.addCode(c),
    addPolicy: (p) => {
      prints.set(p.policy_id, fingerprintOf(p, (p.files?.text && texts.get(p.files.text)) || ""));
      inner.addPolicy(p);
    },
    finish: (meta: DatasetMeta & { addTables?: (db: DatabaseSync) => void }) =>
      inner.finish({
        ...meta,
        addTables: (out: DatabaseSync) => {
          meta.addTables?.(out);
          writeCmsRecords(out, records.notes(), records.futureRetire());
          writeFingerprints(out, prints);
        },
      } as DatasetMeta),
    abort: () => inner.abort(),
  };
  if (storesText(inner))
    sink.storeText = async (name, md) => {
      const stored = await inner.storeText(name, md);
      texts.set(stored, wordsHash(md));
      return stored;
    };
  return sink;
}
