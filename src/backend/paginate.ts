import type { Envelope } from "../contract/index.js";

/** Safety stop for servers that claim `has_more` forever. */
const MAX_PAGES = 100_000;

/**
 * `--all`: requests page after page, advancing `offset` by the items received, until
 * `has_more` is false. Stops with a warning on an empty page that claims more, when the
 * server echoes another offset than asked (the sandbox ignores `offset`), or when a page
 * repeats the one before.
 */
async function* paginateAll<T>(
  fetchPage: (offset: number) => Promise<Envelope<T>>,
  startOffset: number,
  warn: (message: string) => void,
): AsyncGenerator<Envelope<T>> {
  let offset = startOffset;
  let previous: { offset: number; items: string } | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await fetchPage(offset);
    if (page.offset !== offset) {
      if (n === 0) yield page;
      warn(
        `the server answered offset ${page.offset} when asked for ${offset}; it ignores paging (sandbox?), so --all stopped here`,
      );
      return;
    }
    // A server that ignores offset but echoes it would send the same page forever (and the
    // json and table formats would hold every copy in memory).
    const items = JSON.stringify(page.data);
    if (previous && page.data.length > 0 && items === previous.items) {
      warn(
        `the server sent the same items at offset ${offset} as at offset ${previous.offset}; it ignores paging, so --all stopped here`,
      );
      return;
    }
    previous = { offset, items };
    yield page;
    if (!page.has_more) return;
    if (page.data.length === 0) {
      warn(
        `the server sent an empty page at offset ${offset} yet says it has more; --all stopped here`,
      );
      return;
    }
    offset += page.data.length;
  }
  warn(`--all stopped after ${MAX_PAGES} pages`);
}

/** One page, or every page with `--all`: what list commands iterate. */
export async function* fetchPages<T>(
  all: boolean,
  fetchPage: (offset: number) => Promise<Envelope<T>>,
  startOffset: number,
  warn: (message: string) => void,
): AsyncGenerator<Envelope<T>> {
  if (all) yield* paginateAll(fetchPage, startOffset, warn);
  else yield await fetchPage(startOffset);
}
