import type { IdField } from "./catalogue-ids.js";
import { definedOnly, buildPageQuery, makeQueryFlagHint, type PageFlags } from "./page.js";
import { parseLobs, parseStatesToSend, requireList } from "./parse-flags.js";

/** The `lobs` flags as commander hands them over. */
export interface LobsFlags extends PageFlags {
  lob?: string[];
  payer?: string[];
  state?: string[];
  /** `--exact-state`: the states as typed, without their sub-state jurisdictions. */
  exactState?: boolean;
}

/** Maps `lobs` flags to the `GET /v1/lobs` query (states upper-cased, split states widened); only what was set. */
export function buildLobsQuery(flags: LobsFlags): Record<string, unknown> {
  return definedOnly({
    ...buildPageQuery(flags),
    lobs: parseLobs(requireList(flags.lob, "--lob")),
    payer_ids: requireList(flags.payer, "--payer"),
    states: parseStatesToSend(requireList(flags.state, "--state"), flags.exactState),
  });
}

/** Names the `lobs` flag behind a validation location. */
export const lobsFlagFor = makeQueryFlagHint({
  lobs: "--lob",
  payer_ids: "--payer",
  states: "--state",
  limit: "--limit",
  offset: "--offset",
});

/** The payer ids of a `lobs` query, matched against the catalogue ignoring case. */
export const LOBS_ID_FIELDS: readonly IdField[] = [
  { path: ["payer_ids"], kind: "payer", flag: "--payer" },
];
