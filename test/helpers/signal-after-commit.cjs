// Preloaded into the CLI (NODE_OPTIONS=--require) by the output-signals tests: the process sends
// itself COVERAGE_TEST_SIGNAL (SIGINT by default) the moment a temporary output (`.tmp`) has been
// linked or renamed into place, so "a signal just after the file is complete" needs no timing.
"use strict";
const fs = require("node:fs");

const signal = process.env.COVERAGE_TEST_SIGNAL || "SIGINT";
let sent = false;

for (const name of ["linkSync", "renameSync"]) {
  const real = fs[name];
  fs[name] = function (from, to) {
    const result = real.call(fs, from, to);
    if (!sent && String(from).endsWith(".tmp")) {
      sent = true;
      process.kill(process.pid, signal);
    }
    return result;
  };
}
