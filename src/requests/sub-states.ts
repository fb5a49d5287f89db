// The CLI's words for the sub-state rule of `domain/sub-states.ts` (the stderr line, `--help`).
import { statewideOf, SUB_STATE_NAMES, subStatesOf } from "../domain/sub-states.js";

export {
  expandStates,
  statewideOf,
  SUB_STATE_JURISDICTIONS,
  SUB_STATE_NAMES,
  subStatesOf,
} from "../domain/sub-states.js";

/**
 * The one stderr line telling that `--state` values were widened (`--state CA also sends NF, SF
 * ...`), or undefined when none of the typed states is split. `flag` names the option.
 */
export function describeStateExpansion(
  states: readonly string[],
  flag = "--state",
): string | undefined {
  const typed = [...new Set(states.map((s) => s.toUpperCase()))];
  const down = typed.filter((s) => subStatesOf(s).length > 0);
  const up = typed.filter((s) => statewideOf(s) !== undefined && !typed.includes(statewideOf(s)!));
  if (down.length === 0 && up.length === 0) return undefined;
  const parts = down.map((s) => {
    const subs = subStatesOf(s);
    return `${s} also sends ${subs.join(", ")} (${subs.map((c) => SUB_STATE_NAMES[c]).join(", ")})`;
  });
  const sentences = parts.length
    ? [`${flag} ${parts.join("; ")}: Medicare's sub-state jurisdictions.`]
    : [];
  if (up.length)
    sentences.push(
      `${parts.length ? "" : `${flag} `}${up.map((s) => `${s} also sends ${statewideOf(s)}`).join("; ")}: a policy filed for the whole state applies in each part of it.`,
    );
  return `${sentences.join(" ")} Add --exact-state to send only the codes typed.`;
}

/** Help text: what the sub-state codes mean and how `--state` uses them. */
export const SUB_STATE_HELP =
  "\nStates Medicare splits: --state CA also sends NF (Northern California) and SF (Southern\n" +
  "California), NY sends DN (Downstate New York), QN (Queens, New York) and UN (Upstate New\n" +
  "York), MO sends EM (Eastern Missouri) and WM (Western Missouri): Medicare contractors file\n" +
  "Part B there under these codes. A sub-state code also sends its state (--state NF sends\n" +
  "NF, CA): a policy filed for the whole state (DME MAC LCDs, California's Part A) applies in\n" +
  "each part of it. --exact-state sends the codes as typed; values inside --body are never\n" +
  "widened.\n";
