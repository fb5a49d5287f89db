import type { Applicability, LobCategory } from "../contract/index.js";
import { LOB_CATEGORIES, STATE_CODES } from "../contract/index.js";
import { SUB_STATE_JURISDICTIONS } from "./sub-states.js";

// A coverage scope is one payer x LOB category x state (rules.md Filter 4). The API groups
// payers that share a state and a category set into one applicability item, so a list of
// payers beside a list of scopes reads as pairs that do not exist (cli.md Output: "A scope is
// shown with its payer"). Everything here keeps each scope beside its own payer.

type Item = Pick<Applicability, "payer_ids" | "payer_names" | "lobs"> & {
  state?: string | null | undefined;
};

/** One payer x LOB category x state (`state` null: nationwide). */
export interface ScopeTriple {
  payer_id: string;
  payer_name: string;
  lob: LobCategory;
  state: string | null;
}

/** The scopes of one payer, in words: `commercial · nationwide; individual_aca · TX`. */
export interface PayerScopes {
  payer_id: string;
  payer_name: string;
  scope: string;
}

const lobRank = (lob: string) => LOB_CATEGORIES.indexOf(lob as LobCategory);
// Ids and state codes are ASCII: UTF-16 order is code point order for them.
const compareCodePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every distinct payer x LOB x state of an applicability list (each item's payers x its LOBs). */
export function expandScopes(items: readonly Item[]): ScopeTriple[] {
  const seen = new Map<string, ScopeTriple>();
  for (const item of items)
    item.payer_ids.forEach((payer_id, i) => {
      for (const lob of item.lobs) {
        const state = item.state ?? null;
        const key = `${payer_id}\u0000${lob}\u0000${state ?? ""}`;
        if (!seen.has(key))
          seen.set(key, { payer_id, payer_name: item.payer_names[i] ?? payer_id, lob, state });
      }
    });
  return [...seen.values()];
}

/** `PAYER_ID lob STATE` (`US` for nationwide): the form of the `scopes` field. */
export function formatScopeTriple(s: Pick<ScopeTriple, "payer_id" | "lob" | "state">): string {
  return `${s.payer_id} ${s.lob} ${s.state ?? "US"}`;
}

/**
 * The `scopes` field: one `PAYER_ID lob STATE` per distinct scope, sorted, joined by `;`
 * (`CENTENE medicaid TX;CIGNA commercial US`). The items are the current applicability the
 * search returns (rules.md Filter 3), so these are the links not ended as of the engine's today.
 */
export function formatScopes(items: readonly Item[]): string {
  return [...new Set(expandScopes(items).map(formatScopeTriple))].sort(compareCodePoints).join(";");
}

/**
 * Scopes grouped by payer (sorted by name, then id), each payer's own LOBs and states in words:
 * one LOB set per part, states after it (`nationwide` absorbs the states of its LOB set).
 */
export function pairScopes(items: readonly Item[]): PayerScopes[] {
  const byPayer = new Map<string, { name: string; states: Map<LobCategory, string[]> }>();
  for (const s of expandScopes(items)) {
    let payer = byPayer.get(s.payer_id);
    if (!payer) byPayer.set(s.payer_id, (payer = { name: s.payer_name, states: new Map() }));
    const states = payer.states.get(s.lob) ?? [];
    states.push(s.state ?? "nationwide");
    payer.states.set(s.lob, states);
  }
  return [...byPayer]
    .map(([payer_id, { name, states }]) => ({
      payer_id,
      payer_name: name,
      scope: describeLobStates(states),
    }))
    .sort(
      (a, b) =>
        compareCodePoints(a.payer_name.toLowerCase(), b.payer_name.toLowerCase()) ||
        compareCodePoints(a.payer_id, b.payer_id),
    );
}

const TERRITORIES = ["DC", "AS", "GU", "PR", "VI", "CNMI"];
const SUB_STATES = Object.values(SUB_STATE_JURISDICTIONS).flat();
const FIFTY_STATES = STATE_CODES.filter((c) => !TERRITORIES.includes(c) && !SUB_STATES.includes(c));

/**
 * States in words: a list that holds all fifty is "all 50 states" (and territories when they
 * are all there too), with whatever else it holds after a `+`, not 56 codes in a row.
 */
function describeStates(list: readonly string[]): string {
  const states = [...new Set(list)].sort((a, b) => compareCodePoints(a, b));
  if (!FIFTY_STATES.every((c) => states.includes(c))) return states.join(" ");
  let rest = states.filter((c) => !FIFTY_STATES.includes(c));
  let label = "all 50 states";
  if (TERRITORIES.every((c) => rest.includes(c))) {
    label = "all states and territories";
    rest = rest.filter((c) => !TERRITORIES.includes(c));
  }
  return rest.length ? `${label} + ${rest.join(" ")}` : label;
}

/** LOBs that share the same states go together: `medicaid, individual_aca · FL`. */
function describeLobStates(states: Map<LobCategory, string[]>): string {
  const whereOf = (list: string[]) =>
    list.includes("nationwide") ? "nationwide" : describeStates(list);
  const lobsByWhere = new Map<string, LobCategory[]>();
  const lobs = [...states.keys()].sort((a, b) => lobRank(a) - lobRank(b));
  for (const lob of lobs) {
    const where = whereOf(states.get(lob) ?? []);
    lobsByWhere.set(where, [...(lobsByWhere.get(where) ?? []), lob]);
  }
  return [...lobsByWhere].map(([where, list]) => `${list.join(", ")} · ${where}`).join("; ");
}

/** One line per payer: `Cigna Healthcare: commercial · nationwide; individual_aca · TX`. */
export function describePayerScopes(items: readonly Item[]): string[] {
  return pairScopes(items).map((p) => `${p.payer_name}: ${p.scope}`);
}
