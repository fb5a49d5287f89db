import { ExitCode } from "../errors.js";
import { runCli } from "./run.js";

export { runCli };

/** Runs the CLI as this process: Ctrl-C, a closed stdout, and the exit code. */
export async function main(argv: string[]): Promise<void> {
  // The one place the process exits: exit codes are mapped by runCli.
  const controller = new AbortController();
  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) process.exit(ExitCode.interrupted);
    interrupted = true;
    controller.abort();
    // Commands clean up on abort; if one does not finish promptly, leave anyway.
    setTimeout(() => process.exit(ExitCode.interrupted), 3000).unref();
  });
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    // A download stopped by SIGTERM or SIGHUP has set its own code (143, 129) already.
    if (err.code === "EPIPE")
      process.exit(interrupted ? ExitCode.interrupted : Number(process.exitCode ?? ExitCode.ok));
  });

  const code = await runCli(argv, { env: process.env, signal: controller.signal });
  process.exitCode = interrupted ? ExitCode.interrupted : code;
}
