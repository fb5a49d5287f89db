import type { CodeReference, Policy } from "../contract/index.js";
import { LobCategory, LOB_CATEGORIES } from "../contract/index.js";
import { compareCodePoints } from "../domain/compare.js";
import { statewideOf } from "../domain/sub-states.js";
import { listRelationships, summarizeVerdict, type Verdict } from "./coverage-summary.js";
import { findDescription } from "./code-view.js";

/** One cell: what one payer's LOB category says of the code in one state (null: nationwide). */
export interface MatrixCell {
  payer_id: string;
  payer_name: string;
  lob: string;
  state: string | null;
  verdict: Verdict;
  policy_ids: string[];
  policy_numbers: string[];
}

export interface MatrixRow {
  payer_id: string;
  payer_name: string;
  lob: string;
}

/** Where the verdict differs: one payer x LOB across states, or one state across payers. */
export interface Variation {
  by_state: Array<MatrixRow & { verdicts: Partial<Record<Verdict, string[]>> }>;
  by_payer: Array<{ state: string; verdicts: Partial<Record<Verdict, string[]>> }>;
}

/** `coverage matrix --json`. */
export interface Matrix {
  code_system: string;
  code: string;
  description: string | null;
  effective_on: string | null;
  /** Column states; null is the nationwide column (first, when any scope is nationwide). */
  states: Array<string | null>;
  rows: MatrixRow[];
  /** Every cell, row by row, in column order. */
  cells: MatrixCell[];
  variation: Variation;
}

/** What the user narrowed to: rows and columns outside these are not shown. */
export interface MatrixAsked {
  states?: string[];
  lobs?: string[];
  payerIds?: string[];
}

interface Contribution {
  policy: Policy;
  verdict: Verdict;
}

const rowKey = (payer: string, lob: string) => JSON.stringify([payer, lob]);

/**
 * The matrix of one code: rows payer x LOB category, columns states. A nationwide scope applies
 * in every state, so its policies count in every state's cell and also have a column of their
 * own (`nationwide`), which alone shows them when no state-specific scope exists. A statewide
 * scope applies in each part of its state, so `CA`'s policies count in the `NF` and `SF` cells.
 */
export function buildMatrix(
  items: readonly Policy[],
  ref: CodeReference,
  asked: MatrixAsked,
  effectiveOn: string | null,
): Matrix {
  const payerOk = (id: string) =>
    !asked.payerIds || asked.payerIds.some((p) => p.toUpperCase() === id.toUpperCase());
  const lobOk = (lob: string) => !asked.lobs || asked.lobs.includes(lob);
  // (payer, lob) -> state (or "" for nationwide) -> contributions
  const grid = new Map<string, { row: MatrixRow; byState: Map<string, Contribution[]> }>();
  const seenStates = new Set<string>();
  let nationwide = false;
  for (const policy of items) {
    const rels = listRelationships(policy.code_groups ?? [], [ref]);
    if (rels.length === 0) continue;
    const verdict = summarizeVerdict(policy.code_groups ?? [], [ref]);
    for (const a of policy.applicability ?? [])
      a.payer_ids.forEach((payer_id, i) => {
        if (!payerOk(payer_id)) return;
        for (const lob of a.lobs) {
          if (!lobOk(lob)) continue;
          const key = rowKey(payer_id, lob);
          let entry = grid.get(key);
          if (!entry) {
            const row = { payer_id, payer_name: a.payer_names[i] ?? payer_id, lob };
            grid.set(key, (entry = { row, byState: new Map() }));
          }
          const state = a.state ?? "";
          if (state) seenStates.add(state);
          else nationwide = true;
          const list = entry.byState.get(state) ?? [];
          if (!list.some((c) => c.policy.policy_id === policy.policy_id))
            list.push({ policy, verdict });
          entry.byState.set(state, list);
        }
      });
  }
  const stateColumns = asked.states?.length
    ? [...new Set(asked.states)]
    : [...seenStates].sort(compareCodePoints);
  const states: Array<string | null> = nationwide ? [null, ...stateColumns] : stateColumns;
  const lobRank = (l: string) => LOB_CATEGORIES.indexOf(l as LobCategory);
  const entries = [...grid.values()].sort(
    (a, b) =>
      compareCodePoints(a.row.payer_name.toLowerCase(), b.row.payer_name.toLowerCase()) ||
      compareCodePoints(a.row.payer_id, b.row.payer_id) ||
      lobRank(a.row.lob) - lobRank(b.row.lob),
  );
  const cells: MatrixCell[] = [];
  const rows: MatrixRow[] = [];
  for (const { row, byState } of entries) {
    const rowCells: MatrixCell[] = [];
    for (const state of states) {
      const whole = state === null ? undefined : statewideOf(state);
      const here =
        state === null
          ? (byState.get("") ?? [])
          : [
              ...(byState.get(state) ?? []),
              ...(whole === undefined ? [] : (byState.get(whole) ?? [])),
              ...(byState.get("") ?? []),
            ];
      const policies = [...new Map(here.map((c) => [c.policy.policy_id, c])).values()].sort(
        (a, b) => compareCodePoints(a.policy.policy_id, b.policy.policy_id),
      );
      rowCells.push({
        ...row,
        state,
        verdict: combineVerdicts(policies.map((c) => c.verdict)),
        policy_ids: policies.map((c) => c.policy.policy_id),
        policy_numbers: [...new Set(policies.map((c) => c.policy.policy_number))],
      });
    }
    // A row whose scopes all lie outside the asked states says nothing here.
    if (rowCells.every((c) => c.verdict === "none")) continue;
    rows.push(row);
    cells.push(...rowCells);
  }
  return {
    code_system: ref.code_system,
    code: ref.codes[0] ?? "",
    description: findDescription(items, ref),
    effective_on: effectiveOn,
    states,
    rows,
    cells,
    variation: findVariation(rows, states, cells),
  };
}

/** One verdict for a cell's policies: the shared one, `mixed` when they differ, `none` when empty. */
export function combineVerdicts(verdicts: readonly Verdict[]): Verdict {
  const distinct = new Set(verdicts);
  if (distinct.size === 0) return "none";
  if (distinct.size === 1) return [...distinct][0]!;
  return "mixed";
}

function groupStates(pairs: Array<[string, Verdict]>): Partial<Record<Verdict, string[]>> {
  const out: Partial<Record<Verdict, string[]>> = {};
  for (const [name, verdict] of pairs) (out[verdict] ??= []).push(name);
  return out;
}

/**
 * Where coverage varies: a row whose state cells differ (none included: covered in one state,
 * no policy in another), and a state whose rows with a policy give different verdicts. A state
 * with no statewide policy whose parts have one (`CA` beside `NF`, `SF`) is said of its parts
 * alone: "no policy in CA" would read as no policy anywhere in California.
 */
export function findVariation(
  rows: readonly MatrixRow[],
  states: ReadonlyArray<string | null>,
  cells: readonly MatrixCell[],
): Variation {
  const width = states.length;
  const by_state: Variation["by_state"] = [];
  rows.forEach((row, r) => {
    const pairs: Array<[string, Verdict]> = [];
    const verdictAt = (c: number) => cells[r * width + c]!.verdict;
    const coveredByParts = new Set(
      states.flatMap((s, c) => {
        const whole = s === null ? undefined : statewideOf(s);
        return whole !== undefined && verdictAt(c) !== "none" ? [whole] : [];
      }),
    );
    states.forEach((s, c) => {
      if (s !== null && !(verdictAt(c) === "none" && coveredByParts.has(s)))
        pairs.push([s, verdictAt(c)]);
    });
    if (new Set(pairs.map(([, v]) => v)).size > 1)
      by_state.push({ ...row, verdicts: groupStates(pairs) });
  });
  const by_payer: Variation["by_payer"] = [];
  states.forEach((s, c) => {
    if (s === null) return;
    const pairs: Array<[string, Verdict]> = [];
    rows.forEach((row, r) => {
      const v = cells[r * width + c]!.verdict;
      if (v !== "none") pairs.push([`${row.payer_id} ${row.lob}`, v]);
    });
    if (new Set(pairs.map(([, v]) => v)).size > 1)
      by_payer.push({ state: s, verdicts: groupStates(pairs) });
  });
  return { by_state, by_payer };
}

/** CSV/ndjson rows of a matrix: one per cell, list values kept as arrays. */
export function flattenMatrix(m: Matrix): Array<Record<string, unknown>> {
  return m.cells.map((c) => ({ ...c, state: c.state ?? "nationwide" }));
}

/** State columns whose cells are all alike, shown as one column (the nationwide one apart). */
export interface ColumnGroup {
  states: Array<string | null>;
  /** The column index whose cells stand for the group. */
  column: number;
}

/** Groups columns with identical cells (verdict and policies) in every row, in first-seen order. */
export function groupColumns(m: Pick<Matrix, "states" | "rows" | "cells">): ColumnGroup[] {
  const width = m.states.length;
  const groups = new Map<string, ColumnGroup>();
  m.states.forEach((state, c) => {
    const signature =
      state === null
        ? "nationwide"
        : JSON.stringify(
            m.rows.map((_, r) => {
              const cell = m.cells[r * width + c]!;
              return [cell.verdict, cell.policy_ids];
            }),
          );
    const group = groups.get(signature);
    if (group) group.states.push(state);
    else groups.set(signature, { states: [state], column: c });
  });
  return [...groups.values()];
}
