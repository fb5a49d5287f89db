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
    // `help config set`: a subcommand's help (the completions offer the first word only).
    .allowExcessArguments(true)
    .description("display help for command")
    .action((_name: unknown, _opts: unknown, self: Command) => {
      const names = self.args;
      let command = program;
      for (const name of names) {
        const sub = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!sub)
          throw new UsageError(
            `unknown command '${[...names.slice(0, names.indexOf(name)), name].join(" ")}'`,
            `The commands: ${command.commands.map((c) => c.name()).join(", ")}. See ${command === program ? "coverage" : `coverage ${command.name()}`} --help.`,
          );
        command = sub;
      }
      command.help();
    });
}
