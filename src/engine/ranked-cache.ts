import type { FilterRequest } from "../contract/index.js";
import type { RankedList } from "./rank.js";

/**
 * A server's memo of ranked lists (the matching versions of a filter in the request's order),
 * for a dataset that never changes while it is open. Filtering and ranking cost grows with the
 * matches; a page of them costs its own length: the next page of a query, or the same query
 * from another client, then costs the page only. Bounded by entries and by the entries' total
 * length, least recently used first out.
 */
export class RankedCache {
  readonly #lists = new Map<string, RankedList>();
  #held = 0;

  constructor(
    readonly maxLists = 64,
    /** Sum of the kept lists' lengths (a list is an array of up to that many entries). */
    readonly maxEntries = 200_000,
  ) {}

  /** What a list depends on besides the dataset: the filter, the sort and "today". */
  keyOf(request: FilterRequest, today: string): string {
    return JSON.stringify([request.policies ?? null, request.sort ?? "relevance", today]);
  }

  /** The list kept under `key`, now the most recently used; undefined if none. */
  get(key: string): RankedList | undefined {
    const list = this.#lists.get(key);
    if (list) {
      this.#lists.delete(key);
      this.#lists.set(key, list);
    }
    return list;
  }

  /** Keeps `list` under `key`, dropping the least recently used lists beyond the bounds. */
  set(key: string, list: RankedList): void {
    if (list.length > this.maxEntries) return;
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
