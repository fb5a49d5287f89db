import {
  CODE_SYSTEMS,
  FILE_TYPES,
  isRealDate,
  LOB_CATEGORIES,
  RELATIONSHIPS,
  STATE_CODES,
} from "../contract/index.js";
import type { DatasetInput } from "./schema.js";

// A hand-written check of the dataset schema for the happy path: zod takes seconds over the
// million code links of a full catalogue, this takes tens of milliseconds. It accepts only what
// the zod schema accepts (it may be stricter, never looser); when it says no, the loader runs
// zod for the exact message and JSON path, so errors stay zod's.

type Obj = Record<string, unknown>;

const SYSTEM_SET = new Set<unknown>(CODE_SYSTEMS);
const RELATIONSHIP_SET = new Set<unknown>(RELATIONSHIPS);
const LOB_SET = new Set<unknown>(LOB_CATEGORIES);
const STATES = new Set<unknown>(STATE_CODES);
const FILE_TYPE_SET = new Set<unknown>(FILE_TYPES);

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): boolean => typeof v === "string" && v.length > 0;
const isString = (v: unknown): boolean => typeof v === "string";
const isStringOrNull = (v: unknown): boolean => v === null || typeof v === "string";
const isOptionalStringOrNull = (v: unknown): boolean => v === undefined || isStringOrNull(v);

/** Real calendar days, remembered: a catalogue repeats the same few thousand dates. */
function dateChecker(): (v: unknown) => boolean {
  const seen = new Set<string>();
  return (v) => {
    if (typeof v !== "string") return false;
    if (seen.has(v)) return true;
    if (!isRealDate(v)) return false;
    seen.add(v);
    return true;
  };
}

function everyItem(list: unknown, check: (item: unknown) => boolean): boolean {
  if (!Array.isArray(list)) return false;
  for (let i = 0; i < list.length; i++) if (!check(list[i])) return false;
  return true;
}

const isCodeLink = (c: unknown): boolean =>
  isObject(c) &&
  SYSTEM_SET.has(c.code_system) &&
  isId(c.code) &&
  RELATIONSHIP_SET.has(c.relationship) &&
  isOptionalStringOrNull(c.category);

const isFiles = (f: unknown): boolean =>
  f === undefined ||
  (isObject(f) &&
    (f.display === undefined || isString(f.display)) &&
    (f.text === undefined || isString(f.text)));

/** Per-item versions of the check, for a reader that gets the records one at a time. */
export interface ItemCheckers {
  payers(p: unknown): boolean;
  lobs(l: unknown): boolean;
  codes(c: unknown): boolean;
  policies(p: unknown): boolean;
  /** `as_of`: absent, null or a real date. */
  asOf(v: unknown): boolean;
}

/** Makes the item checks (sharing one remembered set of real dates). */
export function makeItemCheckers(): ItemCheckers {
  const isDate = dateChecker();
  const isLink = (a: unknown): boolean =>
    isObject(a) && isId(a.lob_id) && isDate(a.from) && (a.to === null || isDate(a.to));
  return {
    payers: (p) => isObject(p) && isId(p.payer_id) && isString(p.display_name),
    lobs: (l) =>
      isObject(l) &&
      isId(l.lob_id) &&
      isId(l.payer_id) &&
      LOB_SET.has(l.lob) &&
      (l.state === null || STATES.has(l.state)),
    codes: (c) =>
      isObject(c) && SYSTEM_SET.has(c.code_system) && isId(c.code) && isString(c.description),
    policies: (p) =>
      isObject(p) &&
      isId(p.policy_id) &&
      isString(p.policy_number) &&
      isString(p.title) &&
      isDate(p.effective_from_date) &&
      (p.effective_to_date === null || isDate(p.effective_to_date)) &&
      isString(p.file_url) &&
      FILE_TYPE_SET.has(p.file_type) &&
      isString(p.listing_url) &&
      isStringOrNull(p.summary) &&
      isOptionalStringOrNull(p.criteria_text) &&
      isFiles(p.files) &&
      everyItem(p.applicability, isLink) &&
      everyItem(p.codes, isCodeLink),
    asOf: (v) => v === undefined || v === null || isDate(v),
  };
}

/**
 * True when `raw` certainly passes the dataset's zod schema (false means "ask zod": it may
 * still pass). Nothing is copied or changed: defaults are left to the indexer.
 */
export function isWellFormedDataset(raw: unknown): raw is DatasetInput {
  if (!isObject(raw) || raw.format !== "coverage-dataset" || raw.version !== 1) return false;
  const check = makeItemCheckers();
  return (
    check.asOf(raw.as_of) &&
    everyItem(raw.payers, check.payers) &&
    everyItem(raw.lobs, check.lobs) &&
    (raw.codes === undefined || everyItem(raw.codes, check.codes)) &&
    everyItem(raw.policies, check.policies)
  );
}
