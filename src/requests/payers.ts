import { definedOnly, buildPageQuery, makeQueryFlagHint, type PageFlags } from "./page.js";
import { parseLobs, requireList } from "./parse-flags.js";

/** The `payers` flags as commander hands them over. */
export interface PayersFlags extends PageFlags {
  lob?: string[];
}

/** Maps `payers` flags to the `GET /v1/payers` query; only what the user set is sent. */
export function buildPayersQuery(flags: PayersFlags): Record<string, unknown> {
  return definedOnly({
    ...buildPageQuery(flags),
    lobs: parseLobs(requireList(flags.lob, "--lob")),
  });
}

/** Names the `payers` flag behind a validation location. */
export const payersFlagFor = makeQueryFlagHint({
  lobs: "--lob",
  limit: "--limit",
  offset: "--offset",
});
