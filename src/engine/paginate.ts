import type { Envelope } from "../contract/index.js";

export const DEFAULT_LIMIT = 20;

/** Cuts one page from a sorted list; `has_more` when items remain after it. */
export function slicePage<T>(
  items: { readonly length: number; slice(start: number, end: number): T[] },
  limit = DEFAULT_LIMIT,
  offset = 0,
): Envelope<T> {
  return {
    data: items.slice(offset, offset + limit),
    limit,
    offset,
    has_more: offset + limit < items.length,
  };
}
