// Field and column names of the list commands: the CSV header when a list is empty and what
// `--fields` accepts; kept apart from the table views so that commands can name them without
// loading cli-table3.

/** The fields of a search result (what `--fields` picks in json and ndjson). */
export const POLICY_FIELDS = [
  "policy_id",
  "policy_number",
  "title",
  "effective_from_date",
  "effective_to_date",
  "file_url",
  "file_type",
  "listing_url",
  "summary",
  "score",
  "applicability",
  "code_groups",
];

/**
 * The columns of the search table and CSV: the result's own fields, its applicability flattened
 * (payers, LOB categories, states, a compact scope), the verdict on the asked codes and the
 * version's status on the engine's today.
 */
export const POLICY_COLUMNS = [
  "policy_id",
  "policy_number",
  "title",
  "payer_names",
  "payer_ids",
  "lobs",
  "states",
  "scope",
  "scopes",
  "verdict",
  "status",
  "effective_from_date",
  "effective_to_date",
  "score",
  "summary",
  "file_url",
  "file_type",
  "listing_url",
  "applicability",
  "code_groups",
];

/** Search columns drawn from `applicability`, and from `code_groups`: what to fetch for them. */
export const APPLICABILITY_COLUMNS = [
  "payer_names",
  "payer_ids",
  "lobs",
  "states",
  "scope",
  "scopes",
  "applicability",
];
export const CODE_GROUP_COLUMNS = ["verdict", "code_groups"];

/** `payers`. */
export const PAYER_CSV_COLUMNS = ["payer_id", "display_name"];

/** `lobs`. */
export const LOB_CSV_COLUMNS = ["lob_id", "payer_id", "payer_name", "lob", "state"];

/** `updates`. */
export const UPDATE_CSV_COLUMNS = [
  "policy_id",
  "policy_number",
  "title",
  "effective_from_date",
  "change_type",
  "payer_id",
  "payer_display_name",
  "file_url",
];

/** The fields `updates --changes` adds to each item (and so to its CSV and `--fields`). */
export const UPDATE_CHANGES_COLUMNS = ["changes", "predecessor_id"];

/** The fields of each `updates` item: with `--changes`, the two it adds too. */
export function listUpdateFields(changes: boolean): string[] {
  return changes ? [...UPDATE_CSV_COLUMNS, ...UPDATE_CHANGES_COLUMNS] : UPDATE_CSV_COLUMNS;
}

/** `code`: one row per policy and relationship. */
export const CODE_CSV_COLUMNS = [
  "relationship",
  "policy_id",
  "policy_number",
  "title",
  "payer_ids",
  "payer_names",
  "scopes",
  "categories",
  "effective_from_date",
  "effective_to_date",
  "status",
];

/** `matrix`: one row per cell. */
export const MATRIX_CSV_COLUMNS = [
  "payer_id",
  "payer_name",
  "lob",
  "state",
  "verdict",
  "policy_ids",
  "policy_numbers",
];

/** `versions`: one row per version. */
export const VERSION_CSV_COLUMNS = [
  "policy_id",
  "policy_number",
  "title",
  "effective_from_date",
  "effective_to_date",
  "status",
  "changes",
  "summary",
];
