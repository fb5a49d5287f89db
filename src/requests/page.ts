import { integerish } from "./parse-flags.js";

/** `--limit`, `--offset` and `--all`, shared by the list commands. */
export interface PageFlags {
  limit?: string;
  offset?: string;
  all?: boolean;
}

/** Keeps the keys whose value is set: a query sends only what the user gave. */
export function definedOnly(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

/**
 * `limit` and `offset` as typed (whole numbers as numbers, anything else left for the schema to
 * report), only when given: `--all` too leaves the page size to the server unless `--limit` says.
 */
export function buildPageQuery(flags: PageFlags): Record<string, unknown> {
  return definedOnly({
    limit: integerish(flags.limit),
    offset: integerish(flags.offset),
  });
}

/** The flag behind a `query.<key>` validation location, to name it beside the message. */
export function makeQueryFlagHint(
  flags: Record<string, string>,
): (loc: Array<string | number>) => string | undefined {
  return (loc) => (loc[0] === "query" ? flags[String(loc[1])] : undefined);
}
