// Writes the README's commands-and-options reference between its markers: `npm run docs`.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, resolveConfig } from "prettier";
import { createProgram } from "../src/cli/program.js";
import { renderOptionsDocs } from "../src/completion/index.js";
import { OPTIONS_END, OPTIONS_START, replaceBetweenMarkers } from "../src/completion/markdown.js";

export const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");

/** The options reference as it belongs in the README: generated, then formatted like the rest. */
export async function renderReadmeOptions(): Promise<string> {
  // An empty environment: the text must not depend on who generates it.
  const program = createProgram({ env: {}, signal: new AbortController().signal });
  const config = (await resolveConfig(README)) ?? {};
  return format(renderOptionsDocs(program), { ...config, parser: "markdown" });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(README, "utf8");
  const after = replaceBetweenMarkers(
    before,
    OPTIONS_START,
    OPTIONS_END,
    await renderReadmeOptions(),
  );
  writeFileSync(README, after);
  console.log(after === before ? "README.md is current" : "updated README.md");
}
