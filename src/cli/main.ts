import { VERSION } from "./version.js";

const argv = process.argv.slice(2);

// Fast path: `--version` alone is answered before commander, zod and the commands are loaded.
if (argv.length === 1 && argv[0] === "--version") {
  process.stdout.write(`${VERSION}\n`);
} else {
  await run();
}

async function run(): Promise<void> {
  const [{ ExitCode }, { runCli }] = await Promise.all([
    import("../errors.js"),
    import("./run.js"),
  ]);
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
