// Runs the generated completion scripts in the real shells: bash always, zsh and fish where
// installed (.ci/run installs them). Each shell is asked what it offers after a typed line.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Argument, Command, Option } from "commander";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { allCommands, describeProgram, effectiveOptions } from "../../src/completion/model.js";
import {
  COMPLETION_FILES,
  renderCompletion,
  SHELLS,
  type Shell,
} from "../../src/completion/index.js";
import { LobCategory } from "../../src/contract/enums.js";

const CASE = "@@CASE@@";

// Sources the script, then for each line sets what bash sets on TAB and calls the function.
const BASH_HARNESS = `
source "$1"
shift
complete -p coverage
for line in "$@"; do
  COMP_LINE=$line
  COMP_POINT=\${#line}
  read -r -a COMP_WORDS <<<"$line"
  [[ $line == *' ' ]] && COMP_WORDS+=('')
  COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _coverage coverage "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD - 1]}"
  echo ${CASE}
  if (( \${#COMPREPLY[@]} )); then printf '%s\\n' "\${COMPREPLY[@]}"; fi
done
`;

const FISH_HARNESS = `
source $argv[1]
for line in $argv[2..-1]
    echo ${CASE}
    complete -C"$line"
end
`;

// zsh completes only inside the line editor, so an interactive zsh runs on a pseudo-terminal
// (zpty) with compinit and the script on $fpath; compadd is wrapped to record what is offered,
// and a post-completion hook prints a marker so the driver knows the TAB has been handled.
const ZSH_SETUP = `
PROMPT='' RPROMPT='' PS2=''
fpath=($ZCOMP_FPATH $fpath)
autoload -Uz compinit && compinit -u -D
bindkey '^I' complete-word
# Never list or ask "do you wish to see all N possibilities?": that would swallow the next keys.
unsetopt auto_list auto_menu list_beep beep
LISTMAX=100000
compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd "$@"
    return
  fi
  local -a __matched
  builtin compadd -O __matched "$@"
  (( $#__matched )) && print -rl -- $__matched >> $ZCOMP_CAPTURE
  builtin compadd "$@"
}
# _main_complete empties comppostfuncs after each completion: the hook re-arms itself.
_zcomp_done() { comppostfuncs=(_zcomp_done); print -n -- '@@ZCOMP''DONE@@' }
comppostfuncs=(_zcomp_done)
print -n -- '@@ZCOMP''READY@@'
`;

const ZSH_DRIVER = `
zmodload zsh/zpty || exit 3
zpty z zsh -f -i || exit 3
zpty -w z "source \${(q)1}"
zpty -r z out '*@@ZCOMPREADY@@*' || exit 4
shift
for line in "$@"; do
  : >| $ZCOMP_CAPTURE
  zpty -w -n z "$line"$'\\t'
  zpty -r z out '*@@ZCOMPDONE@@*' || exit 5
  print -r -- ${CASE}
  cat $ZCOMP_CAPTURE
  zpty -w -n z $'\\x15'
done
zpty -d z
`;

let dir = "";

function writeScripts(tree: string, from: Command): void {
  for (const shell of SHELLS) {
    mkdirSync(path.join(dir, tree, shell), { recursive: true });
    writeFileSync(
      path.join(dir, tree, shell, COMPLETION_FILES[shell]),
      renderCompletion(shell, from),
    );
  }
}

// Nesting and redefinition that the real tree does not (yet) have: `run` redefines the global
// --mode with other values and `run deep` inherits run's; `--flag` is a value option at the root
// and a plain flag under `run`, so what follows it is a value only at the root.
function syntheticProgram(): Command {
  const program = new Command("coverage").addOption(
    new Option("--mode <m>", "root mode").choices(["alpha", "beta"]),
  );
  program.option("--flag <v>", "takes a value here");
  const run = program
    .command("run")
    .addOption(new Option("--mode <m>", "run mode").choices(["gamma", "delta"]))
    .option("--flag", "a plain flag here");
  run
    .command("deep")
    .addArgument(new Argument("<level>", "how deep").choices(["shallow", "abyss"]))
    .action(() => {});
  run.command("wide").action(() => {});
  return program;
}
const program = createProgram({ env: {}, signal: new AbortController().signal });
const model = describeProgram(program);

/** Whether the shell is on the PATH: tests of a shell skip only when it is absent. */
function installed(shell: string): boolean {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .some((d) => existsSync(path.join(d, shell)));
}

/** What the shell offers for each line, one array per line; `tree` names the scripts' folder. */
async function complete(shell: Shell, lines: string[], tree = "real"): Promise<string[][]> {
  const script = path.join(dir, tree, shell, COMPLETION_FILES[shell]);
  const env = { HOME: dir, PATH: process.env.PATH, TERM: "dumb", LANG: "C.UTF-8" };
  const run = (file: string, args: string[], extra: Record<string, string> = {}) =>
    execa(file, args, { env: { ...env, ...extra }, extendEnv: false, timeout: 60_000 });
  const r =
    shell === "bash"
      ? await run("bash", [
          "--norc",
          "--noprofile",
          "-c",
          BASH_HARNESS,
          "harness",
          script,
          ...lines,
        ])
      : shell === "fish"
        ? await run("fish", ["--no-config", "-c", FISH_HARNESS, script, ...lines])
        : await run(
            "zsh",
            ["-f", path.join(dir, "driver.zsh"), path.join(dir, "setup.zsh"), ...lines],
            {
              ZCOMP_FPATH: path.join(dir, tree, "zsh"),
              ZCOMP_CAPTURE: path.join(dir, "capture"),
            },
          );
  const cases = r.stdout.split(CASE).slice(1);
  expect(cases).toHaveLength(lines.length);
  return cases.map((c) =>
    c
      .split("\n")
      .map((l) => l.split("\t")[0]?.trim() ?? "")
      .filter(Boolean),
  );
}

/** The item being completed, whatever the shell prints before it (`--lob=`, earlier list items). */
function item(candidate: string): string {
  return (
    candidate
      .replace(/^--[\w-]+=/, "")
      .split(",")
      .at(-1) ?? ""
  );
}

const sorted = (values: readonly string[]) => [...new Set(values)].sort();

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "coverage-completion-"));
  writeScripts("real", program);
  writeScripts("synthetic", syntheticProgram());
  writeFileSync(path.join(dir, "setup.zsh"), ZSH_SETUP);
  writeFileSync(path.join(dir, "driver.zsh"), ZSH_DRIVER);
  mkdirSync(path.join(dir, "data"));
  writeFileSync(path.join(dir, "data", "policies-one.json"), "{}");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const commandNames = (prefix: string) =>
  model.commands.map((c) => c.name).filter((n) => n.startsWith(prefix));
const MED = LobCategory.options.filter((c) => c.startsWith("med"));

// [typed line, what must be offered (as items, in any order)]
const CASES: [string, string[]][] = [
  ["coverage se", commandNames("se")],
  ["coverage search --lob med", MED],
  ["coverage search --lob=med", MED],
  ["coverage search --lob commercial,medicaid,med", MED.filter((c) => c !== "medicaid")],
  ["coverage search --state C", ["CA", "CO", "CT", "CNMI"]],
  ["coverage search --code HC", ["HCPCS:", "HCPCS_MODIFIER:"]],
  ["coverage search --code=IC", ["ICD10CM:"]],
  ["coverage search --code CPT:97", []],
  ["coverage search --relationship covers,d", ["does-not-cover"]],
  ["coverage search --sort title", ["title_asc", "title_desc"]],
  ["coverage search --fields policy_id,payer_", ["payer_names", "payer_ids"]],
  ["coverage lobs --fields payer_", ["payer_id", "payer_name"]],
  ["coverage --format n", ["ndjson"]],
  ["coverage search --format n", ["ndjson"]],
  ["coverage search --dry", ["--dry-run"]],
  ["coverage search -q --api", ["--api-url"]],
  [
    "coverage search --json --lob medicare_part_",
    ["medicare_part_a", "medicare_part_b", "medicare_part_d"],
  ],
  ["coverage --profile search se", commandNames("se")],
  ["coverage --local search --effective-on ", []],
  ["coverage help se", commandNames("se")],
  ["coverage completion ", ["bash", "zsh", "fish"]],
];

// bash must always be there; zsh and fish are skipped, visibly, when not installed.
it("has bash", () => expect(installed("bash")).toBe(true));
for (const shell of SHELLS.filter((s) => !installed(s)))
  it.skip(`${shell} completion (${shell} is not installed)`, () => {});

describe.each(SHELLS.filter(installed))("%s completion", (shell) => {
  // One shell process answers every line of CASES; each test then checks its own line.
  let answers: string[][] = [];
  beforeAll(async () => {
    answers = await complete(
      shell,
      CASES.map(([line]) => line),
    );
  });

  it.each(CASES.map(([line, expected], i) => [line, expected, i] as const))(
    "'%s<TAB>' offers the expected values",
    (_line, expected, i) => {
      expect(sorted((answers[i] ?? []).map(item))).toEqual(sorted(expected));
    },
  );

  it("offers files for file options, as --option FILE and --option=FILE", async () => {
    const stem = path.join(dir, "data", "policies-");
    const offered = await complete(shell, [
      `coverage search --body ${stem}`,
      `coverage --data=${stem}`,
    ]);
    expect(offered.map((o) => o.map((f) => path.basename(f)))).toEqual([
      ["policies-one.json"],
      ["policies-one.json"],
    ]);
  });

  // The whole tree, so the scripts keep up as commands arrive: every subcommand list, every enum
  // option (after each command that has it) and every enum argument.
  it("offers every command's subcommands, enum option values and enum arguments", async () => {
    const cases: [string, string[]][] = [];
    for (const command of allCommands(model)) {
      const words = ["coverage", ...command.path];
      if (command.commands.length > 0)
        cases.push([`${words.join(" ")} `, command.commands.map((c) => c.name)]);
      for (const option of effectiveOptions(command)) {
        const spec = option.values;
        if (spec.kind === "choices" && !spec.partial)
          cases.push([`${[...words, option.names.at(-1)].join(" ")} `, [...spec.values]]);
      }
      command.arguments.forEach((argument, index) => {
        const spec = argument.values;
        if (spec.kind === "choices" && command.commands.length === 0)
          cases.push([
            `${[...words, ...Array<string>(index).fill("x")].join(" ")} `,
            [...spec.values],
          ]);
      });
    }
    const offered = await complete(
      shell,
      cases.map(([line]) => line),
    );
    const got = cases.map(([line], i) => [line, sorted((offered[i] ?? []).map(item))]);
    expect(got).toEqual(cases.map(([line, values]) => [line, sorted(values)]));
    expect(cases.map(([line]) => line)).toEqual(
      expect.arrayContaining(["coverage search --lob ", "coverage completion "]),
    );
  });

  it("uses the nearest definition of an option: a command's own, else its parents'", async () => {
    const lines: [string, string[]][] = [
      ["coverage --mode ", ["alpha", "beta"]],
      ["coverage run --mode ", ["gamma", "delta"]],
      ["coverage run deep --mode ", ["gamma", "delta"]],
      ["coverage run ", ["deep", "wide", "help"]],
      ["coverage --flag run ", ["run", "help"]],
      ["coverage run --flag ", ["deep", "wide", "help"]],
      ["coverage run deep ", ["shallow", "abyss"]],
      ["coverage run --flag deep --mode gamma ", ["shallow", "abyss"]],
    ];
    const offered = await complete(
      shell,
      lines.map(([line]) => line),
      "synthetic",
    );
    expect(lines.map(([line], i) => [line, sorted((offered[i] ?? []).map(item))])).toEqual(
      lines.map(([line, values]) => [line, sorted(values)]),
    );
  });
});
