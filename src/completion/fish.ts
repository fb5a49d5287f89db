import { allCommands, effectiveOptions, type CommandSpec } from "./model.js";
import { argumentEntries, optionGroups, pathKey, wrapJoin } from "./spec-words.js";

function quote(s: string): string {
  return `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

// One line per candidate: fish shows the text after a tab as its description.
function described(pairs: [string, string][]): string[] {
  return pairs.map(
    ([name, description]) => `            printf '%s\\t%s\\n' ${quote(name)} ${quote(description)}`,
  );
}

function switchFunction(
  name: string,
  doc: string,
  args: string,
  subject: string,
  arms: { patterns: string[]; body: string[] }[],
  fallback: string[],
): string {
  return [
    `function ${name} --argument-names ${args} --description ${quote(doc)}`,
    `    switch ${subject}`,
    ...arms.flatMap((a) => [
      `        case ${wrapJoin(a.patterns.map(quote), " ", " \\", "            ", "        case ")}`,
      ...a.body,
    ]),
    "        case '*'",
    ...fallback,
    "    end",
    "end",
  ].join("\n");
}

function echoWords(words: string[]): string[] {
  return [`            printf '%s\\n' ${words.map(quote).join(" ")}`];
}

// The same walk as the bash script: the subcommand path, the positional count, and whether the
// word before the cursor is an option waiting for its value.
const ENGINE = `function __coverage_offer --description 'Candidates for token $argv[1] after prefix $argv[2], from a spec'
    set -l cur $argv[1]
    set -l prefix $argv[2]
    set -l kind $argv[3]
    set -l values $argv[4..-1]
    switch $kind
        case file
            for path in (__fish_complete_path $cur)
                printf '%s%s\\n' $prefix $path
            end
        case list
            set -l head (string match -r -- '^.*,' $cur)
            set -l chosen (string split , -- "$head")
            for value in $values
                contains -- $value $chosen; or printf '%s%s%s\\n' $prefix "$head" $value
            end
        case choices partial
            for value in $values
                printf '%s%s\\n' $prefix $value
            end
    end
end

function __coverage_lookup --argument-names path option --description 'What an option takes after a path: the nearest definition, its own or inherited'
    while true
        __coverage_option "$path" $option; and return
        test -z "$path"; and break
        set path (string replace -r -- ' ?[^ ]*$' '' $path)
    end
    echo none
end

function __coverage_complete --description 'Completions for the coverage command line'
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -e tokens[1]
    set -l path ''
    set -l nargs 0
    set -l expect ''
    set -l ended 0
    for token in $tokens
        if test -n "$expect"
            set expect ''
        else if test $ended = 0; and string match -q -- '-*' $token
            if test $token = --
                set ended 1
            else if not string match -q -- '--*=*' $token
                set -l spec (__coverage_lookup "$path" $token)
                test "$spec[1]" != none; and set expect $token
            end
        else if test $nargs = 0; and contains -- $token (__coverage_commands "$path" | string replace -r '\\t.*' '')
            set path (string trim -- "$path $token")
        else
            set nargs (math $nargs + 1)
        end
    end
    if test -n "$expect"
        __coverage_offer "$cur" '' (__coverage_lookup "$path" $expect)
    else if test $ended = 0; and string match -q -- '--*=*' $cur
        set -l parts (string split -m 1 = -- $cur)
        __coverage_offer "$parts[2]" "$parts[1]=" (__coverage_lookup "$path" $parts[1])
    else if test $ended = 0; and string match -q -- '-*' $cur
        __coverage_options "$path"
    else if test $nargs = 0; and set -l commands (__coverage_commands "$path")
        printf '%s\\n' $commands
    else
        __coverage_offer "$cur" '' (__coverage_argument "$path" $nargs)
    end
end

complete -c coverage -e
complete -c coverage -f -a '(__coverage_complete)'`;

/** The fish completion script (for ~/.config/fish/completions/coverage.fish). */
export function renderFish(root: CommandSpec): string {
  const commands = allCommands(root);
  const program = root.name;
  return [
    `# fish completion for ${program}. Generated from the command tree by \`${program} completion fish\`: do not edit.`,
    `# Install: save this file as ~/.config/fish/completions/${program}.fish, or run`,
    `# \`${program} completion fish | source\` in ~/.config/fish/config.fish.`,
    "",
    switchFunction(
      "__coverage_commands",
      "The subcommands of a command path, with descriptions",
      "path",
      '"$path"',
      commands
        .filter((c) => c.commands.length > 0)
        .map((c) => ({
          patterns: [pathKey(c)],
          body: described(c.commands.map((s) => [s.name, s.description])),
        })),
      ["            return 1"],
    ),
    "",
    switchFunction(
      "__coverage_options",
      "The options recognised after a command path, with descriptions",
      "path",
      '"$path"',
      commands.map((c) => ({
        patterns: [pathKey(c)],
        body: described(
          effectiveOptions(c).flatMap((o) =>
            o.names.map((n): [string, string] => [n, o.description]),
          ),
        ),
      })),
      ["            return 1"],
    ),
    "",
    switchFunction(
      "__coverage_option",
      "What a command's own option takes: none, text, file, or choices|list|partial and values",
      "path option",
      '"$path|$option"',
      optionGroups(root).map((g) => ({ patterns: g.keys, body: echoWords(g.words) })),
      ["            return 1"],
    ),
    "",
    switchFunction(
      "__coverage_argument",
      "What a positional argument (from 0) of a path takes, as for options",
      "path index",
      '"$path|$index"',
      argumentEntries(root).map((e) => ({ patterns: [e.key], body: echoWords(e.words) })),
      ["            echo text"],
    ),
    "",
    ENGINE,
    "",
  ].join("\n");
}
