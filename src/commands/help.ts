import type { Command } from "commander";
import { UsageError } from "../errors.js";

/**
 * `coverage help [command]`, in place of commander's: an unknown name is an error that says
 * so (exit 2), where commander printed the root help alone.
 */
export function registerHelp(program: Command): void {
  program.helpCommand(false);
  program
    .command("help")
    .argument("[command]", "the command to show help for")
    .description("display help for command")
    .action((name: string | undefined) => {
      if (name === undefined) return program.help();
      const sub = program.commands.find(
        (c) => c.name() !== "help" && (c.name() === name || c.aliases().includes(name)),
      );
      if (!sub)
        throw new UsageError(
          `unknown command '${name}'`,
          `The commands: ${program.commands.map((c) => c.name()).join(", ")}. See coverage --help.`,
        );
      sub.help();
    });
}
