// States that Medicare contractors split into sub-state jurisdictions (cli.md, "States that
// Medicare splits"): California's Part B MAC covers `NF` and `SF`, not `CA`, so a search for
// `CA` alone would miss Medicare Part B there. Pure: no I/O, so `search`, `lobs`, `code`,
// `matrix`, `check` and `mcp` all widen a state the same way.

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

/** The sub-state jurisdictions of one state code (any case); empty when Medicare does not split it. */
export function subStatesOf(state: string): readonly string[] {
  return SUB_STATE_JURISDICTIONS[state.toUpperCase()] ?? [];
}

/**
 * The state codes to send for the typed ones: the typed codes as they are (a sub-state code
 * alone included), then the sub-state jurisdictions of each state Medicare splits; repeats
 * dropped. The typed codes keep their positions, so a bad one is named where it was typed.
 */
export function expandStates(states: readonly string[]): string[] {
  const out = new Set<string>(states);
  for (const state of states) for (const sub of subStatesOf(state)) out.add(sub);
  return [...out];
}

/**
 * The one stderr line telling that `--state` values were widened (`--state CA also sends NF
 * (Northern California), SF (...)`), or undefined when none of the typed states is split. `flag` names the option.
 */
export function describeStateExpansion(
  states: readonly string[],
  flag = "--state",
): string | undefined {
  const widened = [...new Set(states.map((s) => s.toUpperCase()))].filter(
    (s) => subStatesOf(s).length > 0,
  );
  if (widened.length === 0) return undefined;
  const parts = widened.map((s) => {
    const subs = subStatesOf(s);
    // Each code beside its name: "Queens, New York" holds a comma of its own (finding N10).
    return `${s} also sends ${subs.map((c) => `${c} (${SUB_STATE_NAMES[c]})`).join(", ")}`;
  });
  return `${flag} ${parts.join("; ")}: Medicare's sub-state jurisdictions. Add --exact-state to send only the codes typed.`;
}

/** Help text: what the sub-state codes mean and how `--state` uses them. */
export const SUB_STATE_HELP =
  "\nStates Medicare splits: --state CA also sends NF (Northern California) and SF (Southern\n" +
  "California), NY sends DN (Downstate New York), QN (Queens, New York) and UN (Upstate New\n" +
  "York), MO sends EM (Eastern Missouri) and WM (Western Missouri): Medicare contractors file\n" +
  "Part B there under these codes. --exact-state sends the codes as typed; a sub-state code\n" +
  "alone (--state NF) is sent as it is; values inside --body are never widened.\n";
