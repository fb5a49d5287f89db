import { definedOnly, buildPageQuery, makeQueryFlagHint, type PageFlags } from "./page.js";
import { integerish } from "./parse-flags.js";

/** The `updates` flags as commander hands them over. */
export interface UpdatesFlags extends PageFlags {
  days?: string;
}

/**
 * Maps `updates` flags to the `GET /v1/policies/updates` query. `days` is sent only when given:
 * the server's default (30 in the rules) applies otherwise.
 */
export function buildUpdatesQuery(flags: UpdatesFlags): Record<string, unknown> {
  return definedOnly({ ...buildPageQuery(flags), days: integerish(flags.days) });
}

/** Names the `updates` flag behind a validation location. */
export const updatesFlagFor = makeQueryFlagHint({
  days: "--days",
  limit: "--limit",
  offset: "--offset",
});
