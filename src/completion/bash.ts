import { allCommands, effectiveOptions, type CommandSpec } from "./model.js";
import { argumentEntries, optionGroups, pathKey, wrapJoin } from "./spec-words.js";

function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A case pattern; a trailing `*` of a key stays a wildcard. */
function pattern(key: string): string {
  return key.endsWith("*") ? `${quote(key.slice(0, -1))}*` : quote(key);
}

function caseArm(patterns: string[], reply: string[]): string {
  return `    ${wrapJoin(patterns.map(pattern), "|", "\\", "    ")}) REPLY=${quote(reply.join(" "))} ;;`;
}

/** An arm whose reply is a long word list, wrapped inside its quotes (the engine splits it). */
function wrappedArm(key: string, words: string[]): string {
  const lead = `    ${quote(key)}) REPLY='`;
  return `${lead}${wrapJoin(words, " ", "", "      ", lead)}' ;;`;
}

function dataFunction(
  name: string,
  doc: string,
  subject: string,
  arms: string[],
  fallback: string,
) {
  return [
    `# ${doc}`,
    `${name}() {`,
    `  case ${subject} in`,
    ...arms,
    `    *) REPLY=${quote(fallback)} ;;`,
    "  esac",
    "}",
  ].join("\n");
}

// The engine: it reads the line up to the cursor itself (COMP_WORDS splits `--lob=a` and `CPT:1`
// at COMP_WORDBREAKS), finds the subcommand path and the word being completed, then offers values.
const ENGINE = `# Offers candidates for the word being completed: $1 the word, $2 an --option= prefix, then a spec.
_coverage_offer() {
  local cur=$1 prefix=$2 kind=$3 value head=''
  shift 3
  local -a candidates=()
  local typed=\${cur:\${#prefix}}
  COMPREPLY=()
  case $kind in
    file)
      # compgen filters (and expands ~) itself; bash replaces the part after --option=.
      [[ $COMP_WORDBREAKS == *=* ]] && prefix=''
      while IFS= read -r value; do COMPREPLY+=("$prefix$value"); done < <(compgen -f -- "$typed")
      compopt -o filenames 2>/dev/null
      return 0
      ;;
    list)
      [[ $typed == *,* ]] && head=\${typed%,*},
      for value in "$@"; do
        [[ ,$head == *,"$value",* ]] || candidates+=("$prefix$head$value")
      done
      ;;
    choices | partial)
      for value in "$@"; do candidates+=("$prefix$value"); done
      [[ $kind == partial ]] && compopt -o nospace 2>/dev/null
      ;;
  esac
  # Bash replaces only the part of the word after its last COMP_WORDBREAKS character.
  local word=$cur
  [[ $COMP_WORDBREAKS == *=* ]] && word=\${word##*=}
  [[ $COMP_WORDBREAKS == *:* ]] && word=\${word##*:}
  local strip=$((\${#cur} - \${#word}))
  for value in "\${candidates[@]}"; do
    [[ $value == "$cur"* ]] && COMPREPLY+=("\${value:strip}")
  done
  return 0
}

# What option $2 takes after path $1: the nearest definition, the command's own or a parent's.
_coverage_lookup() {
  local path=$1
  while _coverage_option "$path" "$2"; [[ -z $REPLY && -n $path ]]; do
    if [[ $path == *' '* ]]; then path=\${path% *}; else path=''; fi
  done
  REPLY=\${REPLY:-none}
}

_coverage() {
  local line=\${COMP_LINE:0:\${COMP_POINT:-\${#COMP_LINE}}}
  local -a words=()
  read -r -a words <<<"$line"
  [[ -z $line || $line == *[[:space:]] ]] && words+=("")
  local cur=\${words[\${#words[@]}-1]}
  local path='' nargs=0 expect='' ended='' i word
  for ((i = 1; i < \${#words[@]} - 1; i++)); do
    word=\${words[i]}
    if [[ -n $expect ]]; then
      expect=''
    elif [[ -z $ended && $word == -* ]]; then
      case $word in
        --) ended=1 ;;
        --*=*) ;;
        *)
          _coverage_lookup "$path" "$word"
          [[ $REPLY != none ]] && expect=$word
          ;;
      esac
    else
      _coverage_commands "$path"
      if ((nargs == 0)) && [[ " $REPLY " == *" $word "* ]]; then
        path=\${path:+$path }$word
      else
        nargs=$((nargs + 1))
      fi
    fi
  done
  local prefix=''
  if [[ -n $expect ]]; then
    _coverage_lookup "$path" "$expect"
  elif [[ -z $ended && $cur == --*=* ]]; then
    prefix=\${cur%%=*}=
    _coverage_lookup "$path" "\${cur%%=*}"
  elif [[ -z $ended && $cur == -* ]]; then
    _coverage_options "$path"
    REPLY="choices $REPLY"
  else
    _coverage_commands "$path"
    if ((nargs == 0)) && [[ -n $REPLY ]]; then
      REPLY="choices $REPLY"
    else
      _coverage_argument "$path" "$nargs"
    fi
  fi
  # REPLY is a kind followed by values: split on purpose (no value holds a space or a glob).
  # shellcheck disable=SC2086
  _coverage_offer "$cur" "$prefix" $REPLY
}

complete -F _coverage coverage`;

/** The bash completion script for the tree (bash 3.2+; bash-completion not required). */
export function renderBash(root: CommandSpec): string {
  const commands = allCommands(root);
  const withSubcommands = commands.filter((c) => c.commands.length > 0);
  return [
    `# bash completion for ${root.name}. Generated from the command tree by \`${root.name} completion bash\`: do not edit.`,
    "# Install: save this file as ~/.local/share/bash-completion/completions/coverage (loaded on",
    "# demand by bash-completion), or `source` it from ~/.bashrc (bash 3.2+, bash-completion optional).",
    "",
    dataFunction(
      "_coverage_commands",
      "The subcommands of a command path ($1: names joined by spaces, empty for the root).",
      `"$1"`,
      withSubcommands.map((c) =>
        caseArm(
          [pathKey(c)],
          c.commands.map((s) => s.name),
        ),
      ),
      "",
    ),
    "",
    dataFunction(
      "_coverage_options",
      "The options recognised after a command path: its own, then those of its parents.",
      `"$1"`,
      commands.map((c) =>
        wrappedArm(
          pathKey(c),
          effectiveOptions(c).flatMap((o) => o.names),
        ),
      ),
      "",
    ),
    "",
    dataFunction(
      "_coverage_option",
      "What a command's own option takes ($1 path, $2 option): none (a flag), text, file, or\n# choices|list|partial then the values; empty when the command does not define it.",
      `"$1|$2"`,
      optionGroups(root).map((g) => caseArm(g.keys, g.words)),
      "",
    ),
    "",
    dataFunction(
      "_coverage_argument",
      "What positional argument $2 (from 0) of path $1 takes, as for options.",
      `"$1|$2"`,
      argumentEntries(root).map((e) => caseArm([e.key], e.words)),
      "text",
    ),
    "",
    ENGINE,
    "",
  ].join("\n");
}
