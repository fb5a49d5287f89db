import { definedOnly, buildPageQuery, makeQueryFlagHint, type PageFlags } from "./page.js";
import type { UpdateNarrowing } from "../views/update-changes.js";
import { LobCategory, LOB_CATEGORIES, safeParseBounded } from "../contract/index.js";
import { UsageError } from "../errors.js";
import { describeLobTypo } from "./lob-typos.js";
import { integerish, parseCodeFlag, parseLobs, requireList } from "./parse-flags.js";

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

/** The narrowing flags of `updates` (applied by the client to each page). */
export interface UpdatesNarrowingFlags {
  payer?: string[];
  lob?: string[];
  code?: string[];
}

/**
 * `--payer`, `--lob` and `--code` as what each page is narrowed to (undefined when none is
 * given): payers as typed (matched in any case), LOBs and codes as `search` reads them.
 */
export function buildUpdatesNarrowing(flags: UpdatesNarrowingFlags): UpdateNarrowing | undefined {
  if (!flags.payer && !flags.lob && !flags.code) return undefined;
  return {
    payerIds: requireList(flags.payer, "--payer"),
    lobs: checkLobCategories(parseLobs(requireList(flags.lob, "--lob"))),
    refs: flags.code?.map((c) => parseCodeFlag(c)),
  };
}

/**
 * `--lob` of `updates` is applied by the client, never seen by a schema: a category outside the
 * spec's list would match nothing and read as "no updates", so it is refused here.
 */
function checkLobCategories(lobs: string[] | undefined): string[] | undefined {
  const bad = lobs?.find((l) => !safeParseBounded(LobCategory, l).success);
  if (bad !== undefined)
    throw new UsageError(
      `--lob ${describeLobTypo(bad)}`,
      `Use one of ${LOB_CATEGORIES.join(", ")} (comma-separated for several).`,
    );
  return lobs;
}
