import type { CodeGroup, FilterRequest } from "../contract/index.js";
import type { PolicyRecord } from "./db.js";
import type { RankedList } from "./rank.js";

/** The longest key kept (a filter's JSON): 64 lists hold at most 4 M characters of keys. */
export const MAX_KEY_LENGTH = 65_536;

/** The value under `key`, moved to the most recently used end of `map`; undefined if none. */
function touch<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

/**
 * A server's memo for the filter endpoint, over a dataset that never changes while it is open.
 * Ranked lists (the matching versions of a filter in the request's order): filtering and ranking
 * cost grows with the matches, a page with its own length, so the next page of a query, or the
 * same query from another client, costs the page only. And the code groups of the versions
 * shaped lately (a version's groups are a few hundred codes, with their descriptions, to sort
 * and group). Each bounded, least recently used first out.
 */
export class FilterCache {
  readonly #lists = new Map<string, RankedList>();
  #held = 0;
  readonly #groups = new Map<PolicyRecord, CodeGroup[]>();

  constructor(
    readonly maxLists = 64,
    /** Sum of the kept lists' lengths (a list keeps a few numbers per entry, no records). */
    readonly maxEntries = 200_000,
    /** Versions whose code groups are kept. */
    readonly maxGroups = 1_000,
  ) {}

  /** The code groups kept for `version`, now the most recently used; undefined if none. */
  getCodeGroups(version: PolicyRecord): CodeGroup[] | undefined {
    return touch(this.#groups, version);
  }

  /**
   * Keeps `groups` for `version` (dropping the least recently used beyond the bound). They are
   * shared between answers: an answer is serialised as it is, never changed.
   */
  keepCodeGroups(version: PolicyRecord, groups: CodeGroup[]): CodeGroup[] {
    this.#groups.delete(version);
    if (this.#groups.size >= this.maxGroups) {
      const oldest = this.#groups.keys().next();
      if (!oldest.done) this.#groups.delete(oldest.value);
    }
    this.#groups.set(version, groups);
    return groups;
  }

  /** What a list depends on besides the dataset: the filter, the sort and "today". */
  keyOf(request: FilterRequest, today: string): string {
    return JSON.stringify([request.policies ?? null, request.sort ?? "relevance", today]);
  }

  /** The list kept under `key`, now the most recently used; undefined if none. */
  get(key: string): RankedList | undefined {
    return touch(this.#lists, key);
  }

  /** Keeps `list` under `key`, dropping the least recently used lists beyond the bounds. */
  set(key: string, list: RankedList): void {
    // A filter of tens of thousands of codes makes a long key: not kept, memory stays small.
    if (list.length > this.maxEntries || key.length > MAX_KEY_LENGTH) return;
    const old = this.#lists.get(key);
    if (old) {
      this.#held -= old.length;
      this.#lists.delete(key);
    }
    this.#lists.set(key, list);
    this.#held += list.length;
    for (const [k, l] of this.#lists) {
      if (this.#lists.size <= this.maxLists && this.#held <= this.maxEntries) break;
      this.#lists.delete(k);
      this.#held -= l.length;
    }
  }

  /** How many lists are kept, and their total length. */
  get size(): { lists: number; entries: number } {
    return { lists: this.#lists.size, entries: this.#held };
  }
}
