import { STATE_CODES } from "../contract/index.js";
import { editDistance } from "./catalogue-ids.js";
import { stateCodesNamedLike } from "./state-names.js";

const isStateCode = (text: string) => (STATE_CODES as readonly string[]).includes(text);

/**
 * What is wrong with a `--state` value that is no code, in place of the schema's list of all 63:
 * codes run together (`CA NY`), else the closest codes (one edit from a short value, or the
 * states whose names start with it).
 */
export function describeStateTypo(value: string): string {
  const upper = value.toUpperCase();
  // A code in lower case (`nf` in a --body or a tool's input): the code, not its neighbours.
  if (isStateCode(upper))
    return `'${value}' is not a state code: did you mean ${upper}? (codes are upper case)`;
  const parts = upper.split(/\s+/);
  if (parts.length > 1 && parts.every(isStateCode))
    return `'${value}' holds several codes: separate them with commas, as in ${parts.join(",")}`;
  const near = new Set<string>(stateCodesNamedLike(value));
  if (upper.length <= 4) for (const c of STATE_CODES) if (editDistance(upper, c) === 1) near.add(c);
  const closest = [...near].slice(0, 6);
  return `'${value}' is not a state code${closest.length ? `: did you mean ${closest.join(", ")}?` : ""}`;
}

/** Whether a validation problem is a `states` list item that is no state code. */
export function isStateTypo(item: { loc: ReadonlyArray<string | number>; type: string }): boolean {
  return item.type === "enum" && item.loc[item.loc.length - 2] === "states";
}
