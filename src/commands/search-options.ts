import type { Command } from "commander";
import { LOB_CATEGORIES, SORTS } from "../contract/index.js";
import { collect, EXACT_STATE_FLAG } from "./shared.js";

/**
 * The request flags of `search` (its own file, so search.ts stays a thin command); the
 * `--retired`/`--no-retired` flags given are pushed to `retiredFlags`, in order, so that
 * both together can be refused.
 */
export function addSearchOptions(command: Command, retiredFlags: string[]): Command {
  return (
    command
      .option("--query <text>", "full-text words across titles and summaries: rank, never filter")
      .option(
        "--code <system:codes>",
        "one system's codes, e.g. CPT:97110,97112 (repeatable)",
        collect,
      )
      .option("--relationship <rels>", "covers, does-not-cover, references (comma list)", collect)
      // --match and --sort are checked by the request schema (not commander's choices) so a bad
      // value is reported like every other one: `body.sort: Input should be ... (--sort)`, exit 2.
      .option("--match <mode>", "across --code refs: any (OR) or all (AND)")
      .option("--payer <ids>", "payer ids (repeatable, comma-separated)", collect)
      .option("--lob <categories>", `LOB categories: ${LOB_CATEGORIES.join(", ")}`, collect)
      .option("--lob-id <ids>", "LOB ids (repeatable, comma-separated)", collect)
      .option(
        "--state <codes>",
        "state codes, any case (nationwide always included; CA, NY, MO bring their Medicare sub-state codes, NF, SF, DN, QN, UN, EM, WM their state)",
        collect,
      )
      .option(...EXACT_STATE_FLAG)
      .option("--effective-start <date>", "in effect on or after DATE (YYYY-MM-DD)")
      .option("--effective-end <date>", "taken effect on or before DATE (YYYY-MM-DD)")
      .option("--effective-on <date>", "in effect on DATE (start and end)")
      .option("--retired", "retired versions only")
      .option("--no-retired", "versions not retired (upcoming included)")
      .on("option:retired", () => retiredFlags.push("--retired"))
      .on("option:no-retired", () => retiredFlags.push("--no-retired"))
      .option("--sort <sort>", `result order: ${SORTS.join(", ")} (default relevance)`)
      .option("--limit <n>", "results per page, 1-100 (default 20)")
      .option("--offset <n>", "results to skip (default 0)")
      .option("--applicability", "include each result's applicability (a table column too)")
      .option("--code-groups", "include each result's code groups (a table column too)")
      .option(
        "--body <file>",
        "a whole filter body as JSON (file or - for stdin); flags override it",
      )
      .option("--all", "fetch every page (add --limit 100 for fewer requests)")
      .option("--dry-run", "print the request instead of sending it")
  );
}
