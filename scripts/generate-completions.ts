// Writes completions/* from the command tree: `npm run completions`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createProgram } from "../src/cli/program.js";
import { COMPLETION_FILES, renderCompletion, SHELLS } from "../src/completion/index.js";

export const COMPLETIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "completions",
);

/** Each checked-in script's path and the text the generator makes for it now. */
export function renderCompletionFiles(): { file: string; text: string }[] {
  // An empty environment: the scripts must not depend on who generates them.
  const program = createProgram({ env: {}, signal: new AbortController().signal });
  return SHELLS.map((shell) => ({
    file: path.join(COMPLETIONS_DIR, COMPLETION_FILES[shell]),
    text: renderCompletion(shell, program),
  }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const { file, text } of renderCompletionFiles()) {
    writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
