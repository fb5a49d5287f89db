/**
 * A Map a long-running server may fill from a snapshot without growing without end: it starts
 * again (cleared) when a new entry would pass either bound, its number of entries or the sum of
 * their weights (the numbers an entry holds).
 */
export class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();
  #weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  /** Keeps `value`, of `weight`, clearing everything first if it would not fit. */
  set(key: K, value: V, weight: number): void {
    if (this.#map.size >= this.maxEntries || this.#weight + weight > this.maxWeight) {
      this.#map.clear();
      this.#weight = 0;
    }
    this.#map.set(key, value);
    this.#weight += weight;
  }
}
