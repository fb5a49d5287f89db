import { Argument, type Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { SHELLS, type Shell } from "../completion/shells.js";
import { examples } from "./shared.js";

/** `coverage completion bash|zsh|fish`: prints the completion script generated from this tree. */
export function registerCompletion(program: Command, run: RunEnvironment): void {
  program
    .command("completion")
    .description("print the shell completion script (bash, zsh or fish)")
    .addArgument(new Argument("<shell>", "the shell to complete in").choices(SHELLS))
    .addHelpText(
      "after",
      examples([
        "coverage completion bash > ~/.local/share/bash-completion/completions/coverage",
        "coverage completion zsh > ~/.zsh/completions/_coverage   # a folder on $fpath",
        "coverage completion fish > ~/.config/fish/completions/coverage.fish",
      ]),
    )
    .action(async (shell: Shell, _opts: unknown, command: Command) => {
      const { renderCompletion } = await import("../completion/index.js");
      // The script describes the whole program, whichever subcommand we are.
      let root = command;
      while (root.parent) root = root.parent;
      (run.stdout ?? process.stdout).write(renderCompletion(shell, root));
    });
}
