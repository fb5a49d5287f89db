// Preloaded into the CLI (NODE_OPTIONS=--require) by download tests: the process sends itself
// a signal (SIGINT, or COVERAGE_TEST_SIGNAL) at one exact point of a download and goes on only once
// the CLI's handler has run, so "Ctrl-C just before / just after the file is in place" needs no timing.
//   COVERAGE_TEST_SIGNAL_AT=before-commit: when the temporary file is closed (all bytes written)
//   COVERAGE_TEST_SIGNAL_AT=after-commit:  when the temporary file has been linked into place
"use strict";
const fsp = require("node:fs/promises");

const at = process.env.COVERAGE_TEST_SIGNAL_AT;
// SIGINT by default; COVERAGE_TEST_SIGNAL=SIGTERM (or SIGHUP) sends that one instead.
const signal = process.env.COVERAGE_TEST_SIGNAL || "SIGINT";

function interrupt() {
  return new Promise((resolve) => {
    // A signal watcher does not keep the process alive; this timer does, until it arrives.
    const alive = setInterval(() => undefined, 1000);
    // Listeners run in the order they were added: the CLI's own handler has run by then.
    process.once(signal, () => {
      clearInterval(alive);
      setImmediate(resolve);
    });
    process.kill(process.pid, signal);
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
