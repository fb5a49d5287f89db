// States that Medicare contractors split into sub-state jurisdictions (cli.md, "States that
// Medicare splits"): California's Part B MAC covers `NF` and `SF`, not `CA`, so a search for
// `CA` alone would miss Medicare Part B there; and a policy filed for all of `CA` (DME MAC LCDs,
// California's Part A) applies inside `NF` too, so a search for `NF` alone would miss it. This
// file is the one place that knows both directions: `search`, `lobs`, `code`, `matrix`, `check`
// and `mcp` all widen a state through `expandStates`, and `matrix` counts a part's state through
// `statewideOf`. Pure: no I/O; a rule shared by requests, views and the MCP tools.

/** Each state Medicare splits and its sub-state jurisdictions, in the spec's order. */
export const SUB_STATE_JURISDICTIONS: Readonly<Record<string, readonly string[]>> = {
  CA: ["NF", "SF"],
  NY: ["DN", "QN", "UN"],
  MO: ["EM", "WM"],
};

/** What each sub-state code means (the spec's list of state codes). */
export const SUB_STATE_NAMES: Readonly<Record<string, string>> = {
  NF: "Northern California",
  SF: "Southern California",
  DN: "Downstate New York",
  QN: "Queens, New York",
  UN: "Upstate New York",
  EM: "Eastern Missouri",
  WM: "Western Missouri",
};

/** Each sub-state jurisdiction and the state it is part of (`NF` -> `CA`). */
const STATE_OF_PART: ReadonlyMap<string, string> = new Map(
  Object.entries(SUB_STATE_JURISDICTIONS).flatMap(([state, parts]) =>
    parts.map((part) => [part, state] as const),
  ),
);

/** The state a sub-state code (any case) is part of (`NF` -> `CA`), or undefined for any other code. */
export function statewideOf(code: string): string | undefined {
  return STATE_OF_PART.get(code.toUpperCase());
}

/** The sub-state jurisdictions of one state code (any case); empty when Medicare does not split it. */
export function subStatesOf(state: string): readonly string[] {
  return SUB_STATE_JURISDICTIONS[state.toUpperCase()] ?? [];
}

/**
 * The state codes to send for the typed ones: the typed codes as they are, then the sub-state
 * jurisdictions of each state Medicare splits (`CA` -> `NF`, `SF`), then the state of each
 * sub-state code (`NF` -> `CA`: its statewide policies apply there); repeats dropped. The typed
 * codes keep their positions, so a bad one is named where it was typed.
 */
export function expandStates(states: readonly string[]): string[] {
  const out = new Set<string>(states);
  for (const state of states) for (const sub of subStatesOf(state)) out.add(sub);
  for (const state of states) {
    const whole = statewideOf(state);
    if (whole) out.add(whole);
  }
  return [...out];
}
