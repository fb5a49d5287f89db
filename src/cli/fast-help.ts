import { fstatSync, readFileSync, statSync, writeSync } from "node:fs";
import path from "node:path";

/** dist/help.json: each command's `--help` text as the CLI prints it to a pipe or a file. */
export const HELP_FILE = "help.json";

/**
 * The command whose help argv asks for alone (`--help`, `search -h`, `data build --help`): ""
 * for the root; undefined for anything else.
 */
export function helpRequest(argv: readonly string[]): string | undefined {
  const last = argv.at(-1);
  if (last !== "--help" && last !== "-h") return undefined;
  const words = argv.slice(0, -1);
  return words.every((word) => /^[a-z]+$/.test(word)) ? words.join(" ") : undefined;
}

/**
 * Prints the help text the build rendered for `command` (build/render-help.mjs), without
 * loading the CLI: `--help` then starts like `--version`. Only where the CLI would print the
 * very same bytes: output to a pipe, a file or /dev/null (a terminal's width changes the
 * wrapping) and no colour forced. False when it printed nothing: the CLI answers as usual.
 */
export function printBuiltHelp(dir: string, command: string, env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_COLOR !== undefined || env.CLICOLOR_FORCE !== undefined) return false;
  let text: string | undefined;
  try {
    const out = fstatSync(1);
    // node:tty would tell a terminal apart, but loading it costs what this path saves.
    if (out.isCharacterDevice() && out.rdev !== statSync("/dev/null").rdev) return false;
    const texts = JSON.parse(readFileSync(path.join(dir, HELP_FILE), "utf8")) as Record<
      string,
      string
    >;
    text = Object.hasOwn(texts, command) ? texts[command] : undefined;
  } catch {
    return false;
  }
  if (text === undefined) return false;
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch {
    // Nothing written yet: the CLI itself answers (and reports a closed stdout its way).
    if (done === 0) return false;
    process.stdout.write(bytes.subarray(done));
  }
  return true;
}
