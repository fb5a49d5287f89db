// `node bench/run.mjs history-pull` with BENCH_BASELINE=DIR, a build from before the history
// (e.g. `git archive 377108d`, the parent of the history's first commit, built with tsup): the
// target "a pull with changes stays within 1.2x of today's pull" (issue 40), measured as it
// reads. Each build first pulls the generated export (week 1) into a data folder of its own,
// kept as a template; then, RUNS times, interleaved and in alternating order, each build's
// template is copied afresh and the build pulls week 2 (1% of the LCDs revised, as in
// `history`): the baseline replaces its snapshot, ours also compares every document with the
// previous snapshot and carries its history. Only the second pulls are timed. Without a
// baseline, ours is reported alone. Env: BENCH_HISTORY_PULL_RUNS (pairs, default 5),
// BENCH_HISTORY_FACTOR (export size, default 1 = the published size).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  cleanEnv,
  fmt,
  GNU_TIME,
  info,
  median,
  OUT,
  printTable,
  refused,
  runTimed,
  verdict,
} from "./lib.mjs";
import { cmsFiles, serve } from "./data-pull.mjs";
import { historyExportArgs, lcdWeek, readLcdTables } from "./history.mjs";
import { QUIET_LOAD, load1, refusal } from "./quiet.mjs";

const RUNS = Number(process.env.BENCH_HISTORY_PULL_RUNS ?? 5);
const DIR = path.join(OUT, "history-pull");

/** The bench part, over `builds` (ours first, then the baselines: { label, bin }). */
export async function historyPull(builds) {
  console.log(
    `\n## history-pull: a pull with changes against a build from before the history (${RUNS} pairs, interleaved; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})`,
  );
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const files = await cmsFiles(historyExportArgs());
  const base = await readLcdTables(files);
  const { server, url, put } = await serve(files);
  // Wall-clock time, and CPU time (user + system, by GNU time where it is installed): on a
  // loaded machine the CPU time is the steadier of the two.
  const pull = async (bin, home) => {
    const cpuFile = GNU_TIME ? path.join(DIR, `cpu-${process.hrtime.bigint()}`) : null;
    const argv = [
      bin,
      ...["data", "pull", "medicare", "--source", `${url}/exports/`],
      ...["--icd10cm-url", `${url}/files/icd10cm.zip`, "--hcpcs-url", `${url}/files/hcpcs.zip`],
    ];
    const env = cleanEnv({ XDG_DATA_HOME: home });
    const r = cpuFile
      ? await runTimed(GNU_TIME, ["-f", "%U %S", "-o", cpuFile, process.execPath, ...argv], { env })
      : await runTimed(process.execPath, argv, { env });
    if (cpuFile && existsSync(cpuFile)) {
      const [user, sys] = readFileSync(cpuFile, "utf8").trim().split("\n").pop().split(" ");
      r.cpuMs = (Number(user) + Number(sys)) * 1000;
      rmSync(cpuFile, { force: true });
    }
    return r;
  };
  const times = new Map(builds.map((b) => [b.label, []]));
  const cpu = new Map(builds.map((b) => [b.label, []]));
  const loads = [];
  try {
    const templates = [];
    for (const [i, b] of builds.entries()) {
      const home = path.join(DIR, `template-${i}`);
      const p = await pull(b.bin, home);
      if (p.code !== 0) throw new Error(`${b.label}first pull failed:\n${p.stderr}`);
      templates.push(home);
    }
    put("/exports/current_lcd.zip", (await lcdWeek(base, 2)).zip);
    for (let r = 0; r < RUNS; r++) {
      const order = builds.map((b, i) => i);
      if (r % 2) order.reverse();
      for (const i of order) {
        const home = path.join(DIR, `run-${i}`);
        rmSync(home, { recursive: true, force: true });
        cpSync(templates[i], home, { recursive: true });
        loads.push(load1());
        const p = await pull(builds[i].bin, home);
        if (p.code !== 0)
          throw new Error(`${builds[i].label}pull with changes failed:\n${p.stderr}`);
        times.get(builds[i].label).push(p.ms);
        if (p.cpuMs !== undefined) cpu.get(builds[i].label).push(p.cpuMs);
      }
    }
  } finally {
    server.close();
  }
  const loaded = Math.max(...loads, load1()) >= QUIET_LOAD;
  const mark = loaded ? " (loaded)" : "";
  const runs = (list) => list.map((t) => fmt(t, 0)).join(" ");
  printTable(
    ["build", `wall ms, median${mark}`, "runs", "CPU ms, median", "runs"],
    builds.map((b) => [
      b.label || "ours",
      fmt(median(times.get(b.label))),
      runs(times.get(b.label)),
      cpu.get(b.label).length ? fmt(median(cpu.get(b.label))) : "n/a",
      runs(cpu.get(b.label)),
    ]),
  );
  const ours = median(times.get(builds[0].label));
  for (const b of builds.slice(1)) {
    const ratio = ours / median(times.get(b.label));
    const name = `a pull with changes <= 1.2x the pull of ${b.label.replace(/: $/, "")}`;
    const detail = `${fmt(ratio, 2)}x (${fmt(ours)} ms vs ${fmt(median(times.get(b.label)))} ms; load ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)})`;
    if (loaded && process.argv.includes("--quiet-check")) refused(refusal(name, detail));
    else verdict(name + mark, ratio <= 1.2, detail);
    if (cpu.get(b.label).length)
      info(
        `CPU time of a pull with changes against ${b.label.replace(/: $/, "")}`,
        `${fmt(median(cpu.get(builds[0].label)) / median(cpu.get(b.label)), 2)}x (${fmt(median(cpu.get(builds[0].label)))} ms vs ${fmt(median(cpu.get(b.label)))} ms)`,
      );
  }
  if (builds.length === 1) info("pull with changes (no BENCH_BASELINE)", `${fmt(ours)} ms${mark}`);
}
