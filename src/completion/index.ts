import type { Command } from "commander";
import { renderBash } from "./bash.js";
import { renderFish } from "./fish.js";
import { renderCompletionMarkdown, renderOptionsMarkdown } from "./markdown.js";
import { describeProgram } from "./model.js";
import type { Shell } from "./shells.js";
import { renderZsh } from "./zsh.js";

export { COMPLETION_FILES, SHELLS, type Shell } from "./shells.js";
export { allCommands, describeProgram } from "./model.js";

/** The completion script of one shell for a commander tree. */
export function renderCompletion(shell: Shell, program: Command): string {
  const root = describeProgram(program);
  switch (shell) {
    case "bash":
      return renderBash(root);
    case "zsh":
      return renderZsh(root);
    case "fish":
      return renderFish(root);
  }
}

/** docs/commands.md's reference of commands, arguments and options for a commander tree. */
export function renderOptionsDocs(program: Command): string {
  return renderOptionsMarkdown(describeProgram(program));
}

/** docs/commands.md's shell completion section for a commander tree. */
export function renderCompletionDocs(program: Command): string {
  return renderCompletionMarkdown(describeProgram(program));
}
