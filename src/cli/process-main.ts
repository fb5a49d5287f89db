import { compileSchemas } from "../contract/validation.js";
import { ExitCode } from "../errors.js";
import { setExitProcess } from "../files/exit-now.js";
import type { RunEnvironment } from "./context.js";
import { createOutput } from "./std-output.js";

/** Runs the CLI as this process: Ctrl-C, a closed stdout, and the exit code. */
export async function runProcess(
  argv: string[],
  runCli: (argv: string[], run: RunEnvironment) => Promise<number>,
): Promise<void> {
  // A one-shot run parses each schema about once (`serve` turns compiling back on).
  compileSchemas(false);
  // A writer stopped by a signal has removed its temporary output: it ends the process at once.
  setExitProcess((code) => process.exit(code));
  // The one place the process exits: exit codes are mapped by runCli.
  const controller = new AbortController();
  let interrupted = false;
  // Set when a command's result is final: a Ctrl-C after that is too late to change it (a
  // download whose file is in place exits 0, as what is on disk says).
  let completed = false;
  const leave = () => process.exit(completed ? ExitCode.ok : ExitCode.interrupted);
  process.on("SIGINT", () => {
    if (interrupted) leave();
    interrupted = true;
    controller.abort();
    // Commands clean up on abort; if one does not finish promptly, leave anyway.
    setTimeout(leave, 3000).unref();
  });
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    // A download stopped by SIGTERM or SIGHUP has set its own code (143, 129) already.
    if (err.code === "EPIPE")
      process.exit(interrupted ? ExitCode.interrupted : Number(process.exitCode ?? ExitCode.ok));
  };

  const code = await runCli(argv, {
    env: process.env,
    stdout: createOutput(1, () => process.stdout.on("error", onStdoutError)),
    stderr: createOutput(2, () => process.stderr),
    signal: controller.signal,
    completed: () => (completed = true),
  });
  process.exitCode = interrupted && !completed ? ExitCode.interrupted : code;
}
