# bash completion for coverage. Generated from the command tree by `coverage completion bash`: do not edit.
# Install: save this file as ~/.local/share/bash-completion/completions/coverage (loaded on
# demand by bash-completion), or `source` it from ~/.bashrc (bash 3.2+, bash-completion optional).

# The subcommands of a command path ($1: names joined by spaces, empty for the root).
_coverage_commands() {
  case "$1" in
    '') REPLY='search policy payers lobs updates code matrix versions diff check download health config completion serve mcp data help' ;;
    'config') REPLY='get set unset list path help' ;;
    'data') REPLY='build export info import pull list changes help' ;;
    'data import') REPLY='mcd edits fees pa help' ;;
    *) REPLY='' ;;
  esac
}

# The options recognised after a command path: its own, then those of its parents.
_coverage_options() {
  case "$1" in
    '') REPLY='-V --version --api-url --sandbox --local --data --today --profile --json --format
      --bom --no-color -q --quiet -v --verbose --timeout -h --help' ;;
    'search') REPLY='--query --code --relationship --match --payer --lob --lob-id --state
      --exact-state --effective-start --effective-end --effective-on --retired --no-retired --sort
      --limit --offset --applicability --code-groups --body --all --dry-run --fields -h --help
      --api-url --sandbox --local --data --today --profile --json --format --bom --no-color -q
      --quiet -v --verbose --timeout' ;;
    'policy') REPLY='--criteria --dry-run -h --help --api-url --sandbox --local --data --today
      --profile --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'payers') REPLY='--lob --limit --offset --all --dry-run --fields -h --help --api-url --sandbox
      --local --data --today --profile --json --format --bom --no-color -q --quiet -v --verbose
      --timeout' ;;
    'lobs') REPLY='--lob --payer --state --exact-state --limit --offset --all --dry-run --fields -h
      --help --api-url --sandbox --local --data --today --profile --json --format --bom --no-color
      -q --quiet -v --verbose --timeout' ;;
    'updates') REPLY='--days --payer --lob --code --changes --limit --offset --all --dry-run
      --fields -h --help --api-url --sandbox --local --data --today --profile --json --format --bom
      --no-color -q --quiet -v --verbose --timeout' ;;
    'code') REPLY='--state --exact-state --lob --payer --effective-on --dry-run --date --edits
      --locality -h --help --api-url --sandbox --local --data --today --profile --json --format
      --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'matrix') REPLY='--code --state --exact-state --lob --payer --effective-on --dry-run -h --help
      --api-url --sandbox --local --data --today --profile --json --format --bom --no-color -q
      --quiet -v --verbose --timeout' ;;
    'versions') REPLY='--dry-run -h --help --api-url --sandbox --local --data --today --profile
      --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'diff') REPLY='--dry-run -h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'check') REPLY='--procedure --diagnosis --state --exact-state --units --modifiers --lob --payer
      --date --input --setting --strict --fail-on --dry-run -h --help --api-url --sandbox --local
      --data --today --profile --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'download') REPLY='--text -o --output --force --url-only --dry-run -h --help --api-url --sandbox
      --local --data --today --profile --json --format --bom --no-color -q --quiet -v --verbose
      --timeout' ;;
    'health') REPLY='--dry-run -h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'config') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json --format
      --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'config get') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'config set') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'config unset') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'config list') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'config path') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'config help') REPLY='--api-url --sandbox --local --data --today --profile --json --format --bom
      --no-color -q --quiet -v --verbose --timeout' ;;
    'completion') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'serve') REPLY='--port --host --api-key --sandbox -h --help --api-url --local --data --today
      --profile --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'mcp') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json --format
      --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json --format
      --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data build') REPLY='-o --output --force -h --help --api-url --sandbox --local --data --today
      --profile --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data export') REPLY='-o --output --force -h --help --api-url --sandbox --local --data --today
      --profile --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data info') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data import') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data import mcd') REPLY='-o --output --icd10cm --hcpcs --strict --force --max-links -h --help
      --api-url --sandbox --local --data --today --profile --json --format --bom --no-color -q
      --quiet -v --verbose --timeout' ;;
    'data import edits') REPLY='--into --program -h --help --api-url --sandbox --local --data
      --today --profile --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data import fees') REPLY='--into -h --help --api-url --sandbox --local --data --today --profile
      --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data import pa') REPLY='--into -h --help --api-url --sandbox --local --data --today --profile
      --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data import help') REPLY='--api-url --sandbox --local --data --today --profile --json --format
      --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data pull') REPLY='--history --no-codes --force --source --icd10cm-url --hcpcs-url
      --stall-timeout --deadline --with --dmepos-url --medicaid-ncci-url -h --help --api-url
      --sandbox --local --data --today --profile --json --format --bom --no-color -q --quiet -v
      --verbose --timeout' ;;
    'data list') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json
      --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data changes') REPLY='--since --days -h --help --api-url --sandbox --local --data --today
      --profile --json --format --bom --no-color -q --quiet -v --verbose --timeout' ;;
    'data help') REPLY='--api-url --sandbox --local --data --today --profile --json --format --bom
      --no-color -q --quiet -v --verbose --timeout' ;;
    'help') REPLY='-h --help --api-url --sandbox --local --data --today --profile --json --format
      --bom --no-color -q --quiet -v --verbose --timeout' ;;
    *) REPLY='' ;;
  esac
}

# What a command's own option takes ($1 path, $2 option): none (a flag), text, file, or
# choices|list|partial then the values; empty when the command does not define it.
_coverage_option() {
  case "$1|$2" in
    '|-V'|'|--version'|'|--sandbox'|'|--local'|'|--json'|'|--bom'|'|--no-color'|'|-q'|'|--quiet'|\
    '|-v'|'|--verbose'|'|-h'|'|--help'|'search|--exact-state'|'search|--retired'|\
    'search|--no-retired'|'search|--applicability'|'search|--code-groups'|'search|--all'|\
    'search|--dry-run'|'search|-h'|'search|--help'|'policy|--criteria'|'policy|--dry-run'|\
    'policy|-h'|'policy|--help'|'payers|--all'|'payers|--dry-run'|'payers|-h'|'payers|--help'|\
    'lobs|--exact-state'|'lobs|--all'|'lobs|--dry-run'|'lobs|-h'|'lobs|--help'|'updates|--changes'|\
    'updates|--all'|'updates|--dry-run'|'updates|-h'|'updates|--help'|'code|--exact-state'|\
    'code|--dry-run'|'code|--edits'|'code|-h'|'code|--help'|'matrix|--exact-state'|\
    'matrix|--dry-run'|'matrix|-h'|'matrix|--help'|'versions|--dry-run'|'versions|-h'|\
    'versions|--help'|'diff|--dry-run'|'diff|-h'|'diff|--help'|'check|--exact-state'|\
    'check|--strict'|'check|--dry-run'|'check|-h'|'check|--help'|'download|--text'|\
    'download|--force'|'download|--url-only'|'download|--dry-run'|'download|-h'|'download|--help'|\
    'health|--dry-run'|'health|-h'|'health|--help'|'config|-h'|'config|--help'|'config get|-h'|\
    'config get|--help'|'config set|-h'|'config set|--help'|'config unset|-h'|'config unset|--help'|\
    'config list|-h'|'config list|--help'|'config path|-h'|'config path|--help'|'completion|-h'|\
    'completion|--help'|'serve|--sandbox'|'serve|-h'|'serve|--help'|'mcp|-h'|'mcp|--help'|'data|-h'|\
    'data|--help'|'data build|--force'|'data build|-h'|'data build|--help'|'data export|--force'|\
    'data export|-h'|'data export|--help'|'data info|-h'|'data info|--help'|'data import|-h'|\
    'data import|--help'|'data import mcd|--strict'|'data import mcd|--force'|'data import mcd|-h'|\
    'data import mcd|--help'|'data import edits|-h'|'data import edits|--help'|\
    'data import fees|-h'|'data import fees|--help'|'data import pa|-h'|'data import pa|--help'|\
    'data pull|--history'|'data pull|--no-codes'|'data pull|--force'|'data pull|-h'|\
    'data pull|--help'|'data list|-h'|'data list|--help'|'data changes|-h'|'data changes|--help'|\
    'help|-h'|'help|--help') REPLY='none' ;;
    '|--api-url'|'|--today'|'|--profile'|'|--timeout'|'search|--query'|'search|--payer'|\
    'search|--lob-id'|'search|--effective-start'|'search|--effective-end'|'search|--effective-on'|\
    'search|--limit'|'search|--offset'|'payers|--limit'|'payers|--offset'|'lobs|--payer'|\
    'lobs|--limit'|'lobs|--offset'|'updates|--days'|'updates|--payer'|'updates|--limit'|\
    'updates|--offset'|'code|--payer'|'code|--effective-on'|'code|--date'|'code|--locality'|\
    'matrix|--payer'|'matrix|--effective-on'|'check|--procedure'|'check|--diagnosis'|\
    'check|--units'|'check|--modifiers'|'check|--payer'|'check|--date'|'serve|--port'|\
    'serve|--host'|'serve|--api-key'|'data import mcd|--max-links'|'data import edits|--into'|\
    'data import edits|--program'|'data import fees|--into'|'data import pa|--into'|\
    'data pull|--source'|'data pull|--icd10cm-url'|'data pull|--hcpcs-url'|\
    'data pull|--stall-timeout'|'data pull|--deadline'|'data pull|--with'|'data pull|--dmepos-url'|\
    'data pull|--medicaid-ncci-url'|'data changes|--since'|'data changes|--days') REPLY='text' ;;
    '|--data'|'search|--body'|'check|--input'|'download|-o'|'download|--output'|'data build|-o'|\
    'data build|--output'|'data export|-o'|'data export|--output'|'data import mcd|-o'|\
    'data import mcd|--output'|'data import mcd|--icd10cm'|'data import mcd|--hcpcs') REPLY='file' ;;
    '|--format') REPLY='choices table json ndjson csv' ;;
    'search|--code'|'updates|--code'|'matrix|--code') REPLY='partial CPT: CPT_MODIFIER: HCPCS: HCPCS_MODIFIER: ICD10CM:' ;;
    'search|--relationship') REPLY='list covers does-not-cover references' ;;
    'search|--match') REPLY='choices any all' ;;
    'search|--lob'|'payers|--lob'|'lobs|--lob'|'updates|--lob'|'code|--lob'|'matrix|--lob'|\
    'check|--lob') REPLY='list commercial medicare_part_a medicare_part_b medicare_advantage medicare_part_d medicaid individual_aca' ;;
    'search|--state'|'lobs|--state'|'code|--state'|'matrix|--state'|'check|--state') REPLY='list AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU PR VI CNMI NF SF DN QN UN EM WM' ;;
    'search|--sort') REPLY='choices policy_id_asc policy_id_desc title_asc title_desc policy_number_asc policy_number_desc relevance' ;;
    'search|--fields') REPLY='list policy_id policy_number title payer_names payer_ids lobs states scope scopes verdict status effective_from_date effective_to_date score summary file_url file_type listing_url applicability code_groups' ;;
    'payers|--fields') REPLY='list payer_id display_name' ;;
    'lobs|--fields') REPLY='list lob_id payer_id payer_name lob state' ;;
    'updates|--fields') REPLY='list policy_id policy_number title effective_from_date change_type payer_id payer_display_name file_url changes predecessor_id' ;;
    'check|--setting') REPLY='choices practitioner hospital dme' ;;
    'check|--fail-on') REPLY='list procedure-not-covered diagnosis-not-covered supported diagnosis-not-listed no-diagnosis-limits mentioned-only not-addressed bundled units-over-MUE add-on-without-primary prior-authorization-required' ;;
    *) REPLY='' ;;
  esac
}

# What positional argument $2 (from 0) of path $1 takes, as for options.
_coverage_argument() {
  case "$1|$2" in
    'config get|0') REPLY='choices api-url sandbox-url api-key format timeout data' ;;
    'config set|0') REPLY='choices api-url sandbox-url api-key format timeout data' ;;
    'config set|1') REPLY='text' ;;
    'config unset|0') REPLY='choices api-url sandbox-url api-key format timeout data' ;;
    'config help|0') REPLY='choices get set unset list path' ;;
    'completion|0') REPLY='choices bash zsh fish' ;;
    'data info|0') REPLY='file' ;;
    'data import mcd|'*) REPLY='file' ;;
    'data import edits|'*) REPLY='file' ;;
    'data import fees|'*) REPLY='file' ;;
    'data import pa|'*) REPLY='file' ;;
    'data import help|0') REPLY='choices mcd edits fees pa' ;;
    'data pull|0') REPLY='choices medicare' ;;
    'data help|0') REPLY='choices build export info import pull list changes' ;;
    'help|0') REPLY='choices search policy payers lobs updates code matrix versions diff check download health config completion serve mcp data' ;;
    *) REPLY='text' ;;
  esac
}

# Offers candidates for the word being completed: $1 the word, $2 an --option= prefix, then a spec.
_coverage_offer() {
  local cur=$1 prefix=$2 kind=$3 value head=''
  shift 3
  local -a candidates=()
  local typed=${cur:${#prefix}}
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
      [[ $typed == *,* ]] && head=${typed%,*},
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
  [[ $COMP_WORDBREAKS == *=* ]] && word=${word##*=}
  [[ $COMP_WORDBREAKS == *:* ]] && word=${word##*:}
  local strip=$((${#cur} - ${#word}))
  for value in "${candidates[@]}"; do
    [[ $value == "$cur"* ]] && COMPREPLY+=("${value:strip}")
  done
  return 0
}

# What option $2 takes after path $1: the nearest definition, the command's own or a parent's.
_coverage_lookup() {
  local path=$1
  while _coverage_option "$path" "$2"; [[ -z $REPLY && -n $path ]]; do
    if [[ $path == *' '* ]]; then path=${path% *}; else path=''; fi
  done
  REPLY=${REPLY:-none}
}

_coverage() {
  local line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
  local -a words=()
  read -r -a words <<<"$line"
  [[ -z $line || $line == *[[:space:]] ]] && words+=("")
  local cur=${words[${#words[@]}-1]}
  local path='' nargs=0 expect='' ended='' i word
  for ((i = 1; i < ${#words[@]} - 1; i++)); do
    word=${words[i]}
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
        path=${path:+$path }$word
      else
        nargs=$((nargs + 1))
      fi
    fi
  done
  local prefix=''
  if [[ -n $expect ]]; then
    _coverage_lookup "$path" "$expect"
  elif [[ -z $ended && $cur == --*=* ]]; then
    prefix=${cur%%=*}=
    _coverage_lookup "$path" "${cur%%=*}"
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

complete -F _coverage coverage
