// Writes docs/commands.md, the reference generated from the command tree: `npm run docs`.
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

export const COMMANDS_DOC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "docs",
  "commands.md",
);

const HEADER = `# Commands

Generated from the command tree by \`npm run docs\` (a test fails when this page is stale); do not
edit it by hand. \`coverage <command> --help\` shows the same. How the commands behave is in
[usage.md](usage.md); the rules behind their answers in [decisions.md](decisions.md).
`;

/** Generated markdown, formatted like the rest of the docs. */
async function formatted(markdown: string): Promise<string> {
  const config = (await resolveConfig(COMMANDS_DOC)) ?? {};
  return format(markdown, { ...config, parser: "markdown" });
}

// An empty environment: the text must not depend on who generates it.
const program = () => createProgram({ env: {}, signal: new AbortController().signal });

/** The options reference as it belongs in docs/commands.md. */
export async function renderReadmeOptions(): Promise<string> {
  return formatted(renderOptionsDocs(program()));
}

/** The shell completion section as it belongs in docs/commands.md. */
export async function renderReadmeCompletion(): Promise<string> {
  return formatted(renderCompletionDocs(program()));
}

/** The whole of docs/commands.md. */
export async function renderCommandsDoc(): Promise<string> {
  let text = replaceBetweenMarkers(
    HEADER,
    COMPLETION_START,
    COMPLETION_END,
    await renderReadmeCompletion(),
  );
  text = replaceBetweenMarkers(text, OPTIONS_START, OPTIONS_END, await renderReadmeOptions());
  return formatted(text);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let before = "";
  try {
    before = readFileSync(COMMANDS_DOC, "utf8");
  } catch {
    // First run: the page is written below.
  }
  const after = await renderCommandsDoc();
  writeFileSync(COMMANDS_DOC, after);
  console.log(after === before ? "docs/commands.md is current" : "updated docs/commands.md");
}
