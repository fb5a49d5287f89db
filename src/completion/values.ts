import type { Argument, Option } from "commander";
import { CONFIG_KEYS } from "../config/keys.js";
import {
  STATE_CODES,
  CODE_SYSTEMS,
  LOB_CATEGORIES,
  MATCH_MODES,
  RELATIONSHIPS,
  SORTS,
} from "../contract/enums.js";

/** What a shell can offer for one option value or positional argument. */
export type ValueSpec =
  /** A flag: takes no value. */
  | { kind: "none" }
  /** Free text (a query, an id, a date): nothing to offer. */
  | { kind: "text" }
  | { kind: "file" }
  | {
      kind: "choices";
      values: readonly string[];
      /** The value is a comma-separated list of these (`--lob medicaid,commercial`). */
      list: boolean;
      /** The values are prefixes the user keeps typing after (`CPT:`): no space after them. */
      partial: boolean;
    };

function choices(values: readonly string[], list = false, partial = false): ValueSpec {
  return { kind: "choices", values, list, partial };
}

/** The cli.md spelling of a relationship: `DOES_NOT_COVER` -> `does-not-cover`. */
function relationshipFlag(value: string): string {
  return value.toLowerCase().replaceAll("_", "-");
}

// Options whose values commander does not know: comma lists (commander's `choices` cannot check
// them) and enums the request schema checks instead of commander. Values come from the contract.
const CONTRACT_OPTION_VALUES: Record<string, ValueSpec> = {
  "--match": choices(MATCH_MODES),
  "--sort": choices(SORTS),
  "--lob": choices(LOB_CATEGORIES, true),
  "--state": choices(STATE_CODES, true),
  "--relationship": choices(RELATIONSHIPS.map(relationshipFlag), true),
  "--code": choices(
    CODE_SYSTEMS.map((s) => `${s}:`),
    false,
    true,
  ),
};

// Positional arguments completed from the contract, by argument name.
const CONTRACT_ARGUMENT_VALUES: Record<string, ValueSpec> = {
  key: choices(CONFIG_KEYS),
};

const FILE_VALUE = /^(file|path|dir|directory)$/i;

/** An option whose value is a comma list of names the command knows (`--fields`). */
export type ListedOption = Option & { listedValues?: readonly string[] };

/**
 * The values of an option that takes one: contract enum, a command's own comma list, commander
 * choices, a file, or text.
 */
export function optionValues(option: ListedOption, valueName: string | undefined): ValueSpec {
  const fromContract = option.long ? CONTRACT_OPTION_VALUES[option.long] : undefined;
  if (fromContract) return fromContract;
  if (option.listedValues) return choices(option.listedValues, true);
  if (option.argChoices) return choices(option.argChoices);
  if (valueName && FILE_VALUE.test(valueName)) return { kind: "file" };
  return { kind: "text" };
}

/** The values of a positional argument; `help [command]` offers its sibling commands. */
export function argumentValues(argument: Argument, command: string, siblings: string[]): ValueSpec {
  if (argument.argChoices) return choices(argument.argChoices);
  if (command === "help" && argument.name() === "command") return choices(siblings);
  const fromContract = CONTRACT_ARGUMENT_VALUES[argument.name()];
  if (fromContract) return fromContract;
  if (FILE_VALUE.test(argument.name())) return { kind: "file" };
  return { kind: "text" };
}
