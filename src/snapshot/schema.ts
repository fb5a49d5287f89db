/** What a snapshot's `meta` table calls its format. */
export const SNAPSHOT_FORMAT = "coverage-snapshot";
/**
 * The snapshot format this release writes and queries; `data info` and `data export` read
 * older ones too (their tables are the same), and every command refuses a newer one rather
 * than misread it. Version 2: `meta` is a rowid table (a lookup in version 1's
 * WITHOUT ROWID table read any large blob its search passed over), the text index's postings
 * are a row of arrays per term, each LOB's links with their periods a row per LOB, and each
 * version's code descriptions are stored beside its code links.
 */
export const SNAPSHOT_VERSION = 2;

/**
 * The snapshot's tables (documented in the README, "Snapshot schema"). They mirror the dataset
 * model: `seq` columns keep the order the records came in (what `data export` writes back),
 * `version_order.pos` is a version's place in `policy_id` code-point order (the engine's positions).
 */
export const SNAPSHOT_TABLES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value);
CREATE TABLE payer (
  seq INTEGER PRIMARY KEY,
  payer_id TEXT NOT NULL,
  display_name TEXT NOT NULL
);
CREATE TABLE lob (
  seq INTEGER PRIMARY KEY,
  lob_id TEXT NOT NULL,
  payer_id TEXT NOT NULL,
  lob TEXT NOT NULL,
  state TEXT
);
CREATE TABLE code (
  seq INTEGER PRIMARY KEY,
  code_system TEXT NOT NULL,
  code TEXT NOT NULL,
  description TEXT NOT NULL,
  key TEXT NOT NULL
);
CREATE TABLE version (
  seq INTEGER PRIMARY KEY,
  policy_id TEXT NOT NULL,
  series TEXT NOT NULL,
  policy_number TEXT NOT NULL,
  title TEXT NOT NULL,
  effective_from_date TEXT NOT NULL,
  effective_to_date TEXT,
  file_url TEXT NOT NULL,
  file_type TEXT NOT NULL,
  listing_url TEXT NOT NULL,
  summary TEXT,
  criteria_text TEXT,
  file_display TEXT,
  file_text TEXT,
  given INTEGER NOT NULL
);
CREATE TABLE version_order (pos INTEGER PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE version_code_links (version INTEGER PRIMARY KEY, code_links TEXT NOT NULL);
CREATE TABLE version_code_groups (version INTEGER PRIMARY KEY, code_groups TEXT NOT NULL);
CREATE TABLE applicability (
  version INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  lob_id TEXT NOT NULL,
  "from" TEXT NOT NULL,
  "to" TEXT,
  PRIMARY KEY (version, seq)
) WITHOUT ROWID;
CREATE TABLE code_link (
  version INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  code_system TEXT NOT NULL,
  code TEXT NOT NULL,
  key TEXT NOT NULL,
  relationship TEXT NOT NULL,
  category TEXT,
  PRIMARY KEY (version, seq)
) WITHOUT ROWID;
CREATE TABLE term (id INTEGER PRIMARY KEY, term TEXT NOT NULL, postings INTEGER NOT NULL);
CREATE TABLE posting_list (
  term INTEGER PRIMARY KEY,
  positions BLOB NOT NULL,
  title_counts BLOB NOT NULL,
  summary_counts BLOB NOT NULL
);
CREATE TABLE lob_links (lob INTEGER PRIMARY KEY, links BLOB NOT NULL);
CREATE TABLE code_positions (key TEXT NOT NULL, positions BLOB NOT NULL);
`;

/** Made once the rows are in (building an index over sorted input is cheaper than updating it). */
export const SNAPSHOT_INDEXES = `
CREATE UNIQUE INDEX payer_id ON payer(payer_id);
CREATE UNIQUE INDEX lob_id ON lob(lob_id);
CREATE INDEX code_key ON code(key);
CREATE UNIQUE INDEX version_policy_id ON version(policy_id);
CREATE INDEX version_series ON version(series);
CREATE INDEX version_from ON version(effective_from_date);
CREATE INDEX version_to ON version(effective_to_date);
CREATE INDEX applicability_lob ON applicability(lob_id, version);
CREATE INDEX code_link_key ON code_link(key, version);
CREATE UNIQUE INDEX term_term ON term(term);
CREATE UNIQUE INDEX code_positions_key ON code_positions(key);
`;

/** Bits of `version.given`: which optional fields the dataset wrote (for an exact export). */
export const GIVEN = { criteria: 1, files: 2 } as const;
