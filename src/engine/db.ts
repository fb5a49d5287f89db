import type {
  CodeGroup,
  CodeSystem,
  FileType,
  LobCategory,
  PolicyFilter,
  Relationship,
} from "../contract/index.js";
import type { DatasetInput } from "../dataset/schema.js";
import { compareCodePoints } from "./compare.js";
import { makeCodeKey } from "../domain/codes.js";
import type { TextIndex } from "./postings.js";

export interface LobRecord {
  lob_id: string;
  payer_id: string;
  payer_name: string;
  lob: LobCategory;
  state: string | null;
}

export interface LinkRecord {
  lob: LobRecord;
  from: string;
  to: string | null;
}

export interface CodeLinkRecord {
  code_system: CodeSystem;
  code: string;
  /** `code_system:normalised code`, the key of the code index and the catalogue. */
  key: string;
  relationship: Relationship;
  category: string | null;
}

export interface PolicyRecord {
  policy_id: string;
  policy_number: string;
  title: string;
  effective_from_date: string;
  effective_to_date: string | null;
  file_url: string;
  file_type: FileType;
  listing_url: string;
  summary: string | null;
  criteria_text: string | null;
  files: { display?: string | undefined; text?: string | undefined };
  links: LinkRecord[];
  codes: CodeLinkRecord[];
  /** Everything before the last `/` of the id: what the versions of one policy share. */
  series: string;
  /**
   * The version's code groups (rule Shapes) as its store made them when it was built, with the
   * engine's groupCodeLinks; absent where they are made when asked (the in-memory store).
   */
  readonly codeGroups?: CodeGroup[] | undefined;
}

/** Read access by key: a Map in memory, or an index of a snapshot on disk. */
export interface Lookup<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  readonly size: number;
}

/** The code catalogue: descriptions by code key. */
export interface Catalogue extends Lookup<string, string> {
  /**
   * A map holding (at least) the descriptions of those of `keys` the catalogue describes, read
   * in one go: a page of code groups asks for a thousand keys, which a store on disk would
   * otherwise read one query at a time.
   */
  getMany(keys: readonly string[]): ReadonlyMap<string, string>;
}

/**
 * What a store on disk answers from its own indexes where the in-memory store walks its
 * versions. Candidates are a superset: the engine still applies every rule to each record.
 */
export interface StoreIndex {
  /**
   * Positions (ascending) of the versions that can pass the filter's retired, window and scope
   * fields; among `within` (ascending positions) when given.
   */
  findCandidates(
    filter: PolicyFilter,
    today: string,
    within?: readonly number[],
  ): readonly number[];
  /**
   * Whether findCandidates keeps exactly the versions that rules Filter 1 to 4 keep for this
   * filter (not a superset): then the engine does not read their records to test them again.
   */
  settles(filter: PolicyFilter, today: string): boolean;
  /** The version at a position, as `policies[position]` but without the list's indirection. */
  versionAt(position: number): PolicyRecord | undefined;
  /**
   * Reads these versions' records in one go (the engine is about to test each of them); with
   * `text`, their titles and summaries as well (it is about to rank them by their words).
   */
  prefetch(positions: readonly number[], text?: boolean): void;
  /**
   * Reads the records of a page's versions (positions) in one go, with their links and code
   * groups when the page shows them: they are about to be shaped.
   */
  readPage(positions: readonly number[], include: { links: boolean; codeGroups: boolean }): void;
  /** Ids of the LOBs linked to at least one version, ever. */
  listLinkedLobIds(): ReadonlySet<string>;
  /** Positions (ascending) of the versions whose effective_from_date is in `[from, to]`. */
  findStartingBetween(from: string, to: string): readonly number[];
  /** The text index's postings of these terms only (the same scores as the whole index). */
  loadTextIndex(terms: readonly string[]): TextIndex;
  /**
   * How many postings loadTextIndex would read for these terms (infinite where each is a row
   * of its own), so the engine can weigh them against reading the candidates' text.
   */
  countPostings(terms: readonly string[]): number;
}

/**
 * The dataset as the engine reads it: one interface, two stores (the JSON dataset indexed in
 * memory, or a snapshot read from disk record by record). The rules never ask which.
 */
export interface Db {
  asOf: string | null;
  payers: Map<string, { payer_id: string; display_name: string }>;
  lobs: LobRecord[];
  lobById: Map<string, LobRecord>;
  /**
   * Versions in `policy_id` code-point order; indexes below point into this list. A snapshot's
   * list makes each record when it is read: ask `index` rather than walking it.
   */
  policies: PolicyRecord[];
  byId: Lookup<string, PolicyRecord>;
  byCode: Lookup<string, readonly number[]>;
  bySeries: Lookup<string, readonly PolicyRecord[]>;
  catalogue: Catalogue;
  /** A snapshot's indexes; absent for the in-memory store, whose walks are cheap. */
  index?: StoreIndex;
}

/** One distinct code of the dataset: its key and the versions that link it (the index's list). */
interface Posting {
  key: string;
  versions: number[];
  /** While building: the versions counted or filled so far, and the last one seen. */
  size: number;
  last: number;
}

/**
 * The code index. A catalogue has a million links but only tens of thousands of codes: each
 * raw spelling is normalised once, and every list is allocated at its final size (growing a
 * million small arrays by push costs more than counting first).
 */
class CodeIndex {
  readonly byKey = new Map<string, number[]>();
  readonly #byKey = new Map<string, Posting>();
  readonly #bySystem = new Map<CodeSystem, Map<string, Posting>>();
  // The links of a version are mostly of one system: skip the outer lookup when it repeats.
  #lastSystem: CodeSystem | undefined;
  #lastRaw = new Map<string, Posting>();

  /** The posting of a code as written in the dataset (spellings of one code share it). */
  posting(system: CodeSystem, code: string): Posting {
    let raw = this.#lastRaw;
    if (system !== this.#lastSystem) {
      raw = this.#bySystem.get(system) ?? new Map<string, Posting>();
      this.#bySystem.set(system, raw);
      this.#lastSystem = system;
      this.#lastRaw = raw;
    }
    let posting = raw.get(code);
    if (posting === undefined) {
      const key = makeCodeKey(system, code);
      posting = this.#byKey.get(key);
      if (!posting) this.#byKey.set(key, (posting = { key, versions: [], size: 0, last: -1 }));
      raw.set(code, posting);
    }
    return posting;
  }

  /** Fills the lists from each version's postings, given in version order. */
  build(perVersion: ReadonlyArray<readonly Posting[]>): void {
    perVersion.forEach((postings, i) => {
      for (const p of postings) {
        if (p.last === i) continue;
        p.last = i;
        p.size++;
      }
    });
    for (const p of this.#byKey.values()) {
      p.versions = new Array<number>(p.size);
      p.size = 0;
      p.last = -1;
      this.byKey.set(p.key, p.versions);
    }
    perVersion.forEach((postings, i) => {
      for (const p of postings) {
        if (p.last === i) continue;
        p.last = i;
        p.versions[p.size++] = i;
      }
    });
  }
}

// Only the two known variants, and only those given (the dataset object may carry other keys).
function storedFiles(files: RawPolicy["files"]): PolicyRecord["files"] {
  const out: PolicyRecord["files"] = {};
  if (files?.display !== undefined) out.display = files.display;
  if (files?.text !== undefined) out.text = files.text;
  return out;
}

type RawPolicy = DatasetInput["policies"][number];
type RawCodeLink = RawPolicy["codes"][number];

/**
 * A version whose code-link records are made on first use: a full catalogue has a million
 * links, and a query reads those of a few hundred versions at most.
 */
class VersionRecord implements PolicyRecord {
  readonly policy_id: string;
  readonly policy_number: string;
  readonly title: string;
  readonly effective_from_date: string;
  readonly effective_to_date: string | null;
  readonly file_url: string;
  readonly file_type: FileType;
  readonly listing_url: string;
  readonly summary: string | null;
  readonly criteria_text: string | null;
  readonly files: PolicyRecord["files"];
  readonly links: LinkRecord[];
  readonly series: string;
  #raw: readonly RawCodeLink[];
  #codes: CodeLinkRecord[] | undefined;
  readonly #index: CodeIndex;

  constructor(p: RawPolicy, links: LinkRecord[], index: CodeIndex) {
    this.policy_id = p.policy_id;
    this.policy_number = p.policy_number;
    this.title = p.title;
    this.effective_from_date = p.effective_from_date;
    this.effective_to_date = p.effective_to_date;
    this.file_url = p.file_url;
    this.file_type = p.file_type;
    this.listing_url = p.listing_url;
    this.summary = p.summary;
    this.criteria_text = p.criteria_text ?? null;
    this.files = storedFiles(p.files);
    this.links = links;
    this.series = p.policy_id.slice(0, Math.max(0, p.policy_id.lastIndexOf("/")));
    this.#raw = p.codes;
    this.#index = index;
  }

  get codes(): CodeLinkRecord[] {
    if (!this.#codes) {
      this.#codes = this.#raw.map((c) => ({
        code_system: c.code_system,
        code: c.code,
        key: this.#index.posting(c.code_system, c.code).key,
        relationship: c.relationship,
        category: c.category ?? null,
      }));
      this.#raw = [];
    }
    return this.#codes;
  }

  /** The postings of the version's links, without making the records (for the code index). */
  postings(): Posting[] {
    return this.#raw.map((c) => this.#index.posting(c.code_system, c.code));
  }
}

/** Builds the engine's indexes (by id, normalised code, policy series) from a checked dataset. */
export function indexDataset(dataset: DatasetInput): Db {
  const payers = new Map(
    dataset.payers.map((p) => [p.payer_id, { payer_id: p.payer_id, display_name: p.display_name }]),
  );
  const lobs: LobRecord[] = dataset.lobs
    .map((l) => ({
      lob_id: l.lob_id,
      payer_id: l.payer_id,
      payer_name: payers.get(l.payer_id)?.display_name ?? l.payer_id,
      lob: l.lob,
      state: l.state,
    }))
    .sort((a, b) => compareCodePoints(a.lob_id, b.lob_id));
  const lobById = new Map(lobs.map((l) => [l.lob_id, l]));
  const codeIndex = new CodeIndex();
  const catalogue = new Map<string, string>();
  for (const c of dataset.codes ?? [])
    catalogue.set(makeCodeKey(c.code_system, c.code), c.description);

  const versions: VersionRecord[] = [];
  for (const p of dataset.policies) {
    const links: LinkRecord[] = [];
    for (const a of p.applicability) {
      const lob = lobById.get(a.lob_id);
      if (lob) links.push({ lob, from: a.from, to: a.to });
    }
    versions.push(new VersionRecord(p, links, codeIndex));
  }
  versions.sort((a, b) => compareCodePoints(a.policy_id, b.policy_id));
  codeIndex.build(versions.map((v) => v.postings()));

  const byId = new Map<string, PolicyRecord>();
  const bySeries = new Map<string, PolicyRecord[]>();
  for (const p of versions) {
    byId.set(p.policy_id, p);
    const series = bySeries.get(p.series);
    if (series) series.push(p);
    else bySeries.set(p.series, [p]);
  }
  return {
    asOf: dataset.as_of ?? null,
    payers,
    lobs,
    lobById,
    policies: versions,
    byId,
    byCode: codeIndex.byKey,
    bySeries,
    catalogue: catalogueOf(catalogue),
  };
}

/** The in-memory store's catalogue over a map of descriptions by code key. */
export function catalogueOf(descriptions: ReadonlyMap<string, string>): Catalogue {
  return {
    get: (key) => descriptions.get(key),
    has: (key) => descriptions.has(key),
    size: descriptions.size,
    // Every key is at hand already: the whole map answers.
    getMany: () => descriptions,
  };
}
