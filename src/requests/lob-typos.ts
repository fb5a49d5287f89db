import { LOB_CATEGORIES } from "../contract/index.js";
import { editDistance } from "./catalogue-ids.js";

/** Whether a validation problem is a `lobs` list item that is no category. */
export function isLobTypo(item: { loc: ReadonlyArray<string | number>; type: string }): boolean {
  return item.type === "enum" && item.loc[item.loc.length - 2] === "lobs";
}

/**
 * What is wrong with a `--lob` value that is no category, in place of the schema's list of all
 * seven: the closest categories (a few edits away, or those it begins), if any.
 */
export function describeLobTypo(value: string): string {
  const typed = value.toLowerCase();
  const begun = LOB_CATEGORIES.filter((c) => c.startsWith(typed));
  const near = begun.length
    ? begun
    : LOB_CATEGORIES.filter((c) => editDistance(typed, c) <= Math.max(2, typed.length / 4));
  return `'${value}' is not a LOB category${near.length ? `: did you mean ${near.join(" or ")}?` : ` (categories: ${LOB_CATEGORIES.join(", ")})`}`;
}
