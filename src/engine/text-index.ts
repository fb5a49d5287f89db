import type { Db, PolicyRecord } from "./db.js";
import type { CountArray, TextIndex } from "./postings.js";
import { stripMarkup, tokenize } from "./text.js";

export type { CountArray, TextIndex };

/** Tokenises the versions' titles and summaries (as scoreVersions does) into a TextIndex. */
export function buildTextIndex(versions: readonly PolicyRecord[]): TextIndex {
  const n = versions.length;
  const terms = new Map<string, number>();
  // Per term while building: (version, title count, summary count) triples, and the last version
  // seen, so a term repeated in a version bumps its triple instead of adding one.
  const postings: number[][] = [];
  const lastDoc: number[] = [];
  const titleLengths = new Int32Array(n);
  const summaryLengths = new Int32Array(n);
  let titleTotal = 0;
  let summaryTotal = 0;
  let size = 0;
  const count = (tokens: readonly string[], doc: number, field: 1 | 2): void => {
    for (const token of tokens) {
      let id = terms.get(token);
      if (id === undefined) {
        id = postings.length;
        terms.set(token, id);
        postings.push([]);
        lastDoc.push(-1);
      }
      const list = postings[id] as number[];
      if (lastDoc[id] !== doc) {
        lastDoc[id] = doc;
        list.push(doc, 0, 0);
        size++;
      }
      const at = list.length - 3 + field;
      list[at] = (list[at] as number) + 1;
    }
  };
  for (let i = 0; i < n; i++) {
    const v = versions[i] as PolicyRecord;
    const title = tokenize(stripMarkup(v.title));
    const summary = tokenize(stripMarkup(v.summary ?? ""));
    titleLengths[i] = title.length;
    summaryLengths[i] = summary.length;
    titleTotal += title.length;
    summaryTotal += summary.length;
    count(title, i, 1);
    count(summary, i, 2);
  }
  const start = new Int32Array(postings.length + 1);
  const docs = new Int32Array(size);
  const titleCounts = new Int32Array(size);
  const summaryCounts = new Int32Array(size);
  let at = 0;
  postings.forEach((list, id) => {
    start[id] = at;
    for (let p = 0; p < list.length; p += 3) {
      docs[at] = list[p] as number;
      titleCounts[at] = list[p + 1] as number;
      summaryCounts[at] = list[p + 2] as number;
      at++;
    }
  });
  start[postings.length] = at;
  return {
    terms,
    start,
    docs,
    titleCounts,
    summaryCounts,
    titleLengths,
    summaryLengths,
    titleTotal,
    summaryTotal,
    sums: new Float64Array(n),
  };
}

// Built on the first query that needs it, not at load: a one-shot run without `q` pays nothing.
const indexes = new WeakMap<Db, TextIndex>();

/**
 * The text index of `db.policies`, built on first use and kept for the db's lifetime; from a
 * store on disk, the stored postings of `terms`.
 */
export function getTextIndex(db: Db, terms: readonly string[] = []): TextIndex {
  if (db.index) return db.index.loadTextIndex(terms);
  let index = indexes.get(db);
  if (!index) {
    index = buildTextIndex(db.policies);
    indexes.set(db, index);
  }
  return index;
}

/** Whether the db's text index has been built already (so using it costs nothing more). */
export function hasTextIndex(db: Db): boolean {
  return db.index !== undefined || indexes.has(db);
}
