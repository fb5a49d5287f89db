// Preloaded into the CLI (NODE_OPTIONS=--require) by download tests: the process sends itself
// SIGINT at one exact point of a download and goes on only once the CLI's handler has run, so
// "Ctrl-C just before / just after the file is put in place" is tested without timing.
//   COVERAGE_TEST_SIGINT_AT=before-commit: when the temporary file is closed (all bytes written)
//   COVERAGE_TEST_SIGINT_AT=after-commit:  when the temporary file has been linked into place
"use strict";
const fsp = require("node:fs/promises");

const at = process.env.COVERAGE_TEST_SIGINT_AT;

function interrupt() {
  return new Promise((resolve) => {
    // A signal watcher does not keep the process alive; this timer does, until it arrives.
    const alive = setInterval(() => undefined, 1000);
    // Listeners run in the order they were added: the CLI's own handler has run by then.
    process.once("SIGINT", () => {
      clearInterval(alive);
      setImmediate(resolve);
    });
    process.kill(process.pid, "SIGINT");
  });
}

if (at === "after-commit") {
  for (const name of ["link", "rename"]) {
    const real = fsp[name];
    fsp[name] = async (from, to) => {
      await real(from, to);
      if (String(from).endsWith(".part")) await interrupt();
    };
  }
} else if (at === "before-commit") {
  const open = fsp.open;
  fsp.open = async (file, ...rest) => {
    const handle = await open(file, ...rest);
    if (String(file).endsWith(".part")) {
      const close = handle.close.bind(handle);
      handle.close = async () => {
        await close();
        await interrupt();
      };
    }
    return handle;
  };
}
