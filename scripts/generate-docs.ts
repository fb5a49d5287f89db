// Writes the README's generated sections between their markers: `npm run docs`.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, resolveConfig } from "prettier";
import { createProgram } from "../src/cli/program.js";
import { renderCompletionDocs, renderOptionsDocs } from "../src/completion/index.js";
import {
  COMPLETION_END,
  COMPLETION_START,
  OPTIONS_END,
  OPTIONS_START,
  replaceBetweenMarkers,
} from "../src/completion/markdown.js";

export const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");

/** Generated markdown, formatted like the rest of the README. */
async function formatted(markdown: string): Promise<string> {
  const config = (await resolveConfig(README)) ?? {};
  return format(markdown, { ...config, parser: "markdown" });
}

// An empty environment: the text must not depend on who generates it.
const program = () => createProgram({ env: {}, signal: new AbortController().signal });

/** The options reference as it belongs in the README. */
export async function renderReadmeOptions(): Promise<string> {
  return formatted(renderOptionsDocs(program()));
}

/** The shell completion section as it belongs in the README. */
export async function renderReadmeCompletion(): Promise<string> {
  return formatted(renderCompletionDocs(program()));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(README, "utf8");
  let after = replaceBetweenMarkers(
    before,
    COMPLETION_START,
    COMPLETION_END,
    await renderReadmeCompletion(),
  );
  after = replaceBetweenMarkers(after, OPTIONS_START, OPTIONS_END, await renderReadmeOptions());
  writeFileSync(README, after);
  console.log(after === before ? "README.md is current" : "updated README.md");
}
