import type { Command } from "commander";
import type { ConfigRun } from "../config/actions.js";
import { checkProfileName } from "../config/values.js";
import { createIo } from "../output/terminal.js";
import type { RunEnvironment } from "./context.js";
import { isOutputFormat, resolveProfileName, type GlobalFlags } from "./settings.js";

/**
 * What a `config` command runs with. Not `createContext`: `config` must work even when the
 * stored settings it would fix are broken, so it reads only the flags and the profile name.
 */
export async function createConfigRun(command: Command, run: RunEnvironment): Promise<ConfigRun> {
  const flags = command.optsWithGlobals<GlobalFlags>();
  const format = flags.format ?? "";
  const io = await createIo(flags.color, run.env, run.stdout, run.stderr);
  return {
    io,
    env: run.env,
    stdin: run.stdin ?? process.stdin,
    signal: run.signal,
    format: flags.json ? "json" : isOutputFormat(format) ? format : "table",
    profile: checkProfileName(resolveProfileName(flags, run.env)),
    notice: (m) => {
      if (!flags.quiet && io.stderrIsTTY) io.stderr.write(io.chalk.dim(m) + "\n");
    },
    inform: (m) => {
      if (!flags.quiet) io.stderr.write(io.chalk.dim(m) + "\n");
    },
  };
}
