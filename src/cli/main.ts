import { ExitCode } from "../errors.js";
import { runCli } from "./run.js";

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
  if (err.code === "EPIPE") process.exit(interrupted ? ExitCode.interrupted : ExitCode.ok);
});

const code = await runCli(process.argv.slice(2), { env: process.env, signal: controller.signal });
process.exitCode = interrupted ? ExitCode.interrupted : code;
