// Preloaded into the CLI (NODE_OPTIONS=--require) by the output-signals tests: the process sends
// itself COVERAGE_TEST_SIGNAL (SIGINT by default) late in a write, at one exact point, so "a
// signal while the output is nearly done" needs no timing:
//   - a snapshot (data build, data import to .db): when its indexes start being built, after
//     every record is in (the longest step before the file is put in place);
//   - a JSON file (data export, data import to .json): when its last bytes are written to the
//     temporary file, before it is closed and put in place.
"use strict";
const fs = require("node:fs");

const signal = process.env.COVERAGE_TEST_SIGNAL || "SIGINT";
let sent = false;
const send = () => {
  if (sent) return;
  sent = true;
  process.kill(process.pid, signal);
};

// node:sqlite warns that it is experimental when first loaded; the CLI hides that warning, and
// this preload loads it first, so it hides it too.
if (typeof process.getBuiltinModule === "function") {
  const emit = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    const { DatabaseSync } = require("node:sqlite");
    const exec = DatabaseSync.prototype.exec;
    DatabaseSync.prototype.exec = function (sql) {
      if (/^\s*INSERT INTO version_order/i.test(String(sql))) send();
      return exec.call(this, sql);
    };
  } catch {
    // No node:sqlite (Node 20): only JSON outputs are written.
  } finally {
    process.emitWarning = emit;
  }
}

const temps = new Set();
const openSync = fs.openSync;
fs.openSync = function (file, ...rest) {
  const fd = openSync.call(fs, file, ...rest);
  if (/\.json\.[^/]*\.tmp$/.test(String(file))) temps.add(fd);
  return fd;
};
const last = (data) =>
  (typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength))
    .toString()
    .endsWith("}\n");
for (const name of ["write", "writeSync"]) {
  const real = fs[name];
  fs[name] = function (fd, data, ...rest) {
    if (temps.has(fd) && (typeof data === "string" || ArrayBuffer.isView(data)) && last(data))
      send();
    return real.call(fs, fd, data, ...rest);
  };
}
const writev = fs.writev;
fs.writev = function (fd, buffers, ...rest) {
  if (temps.has(fd) && buffers.length && last(buffers[buffers.length - 1])) send();
  return writev.call(fs, fd, buffers, ...rest);
};
