/** Non-negative integers, in the narrowest typed array that holds them. */
export type CountArray = Uint8Array | Uint16Array | Int32Array;

/**
 * Every version's title and summary tokenised once, as postings: a `q` query reads the versions
 * holding its few terms instead of visiting every version (20,000 map lookups per term, each a
 * cache miss). Flat typed arrays: a few bytes per (term, version) pair, no object per version.
 */
export interface TextIndex {
  /** Each distinct term's number; term t's postings are `start[t]` up to `start[t + 1]`. */
  readonly terms: Map<string, number>;
  readonly start: Int32Array;
  /** Per posting: the version (index into the versions indexed, ascending within a term). */
  readonly docs: Int32Array;
  /** Per posting: the term's count in the title and in the summary. */
  readonly titleCounts: Int32Array;
  readonly summaryCounts: Int32Array;
  /**
   * Per version: its title's and summary's number of terms (a snapshot stores them in the
   * narrowest unsigned array that holds them).
   */
  readonly titleLengths: CountArray;
  readonly summaryLengths: CountArray;
  /** Sums of the lengths over every version: what a query that filters nothing averages over. */
  readonly titleTotal: number;
  readonly summaryTotal: number;
  /**
   * Per version, the score being summed; all zeros between queries. Shared scratch rather than
   * a new array per query: a fresh 160 KB per query makes V8 collect for external memory.
   */
  readonly sums: Float64Array;
}
