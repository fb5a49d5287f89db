// Every command that writes a file answers SIGINT, SIGTERM and SIGHUP alike (cli.md, "Files and
// folders"): stopped before the file is in place, exit 130/143/129 and nothing at the output
// path or beside it; after, exit 0 with the complete file. Real processes, real signals, sent
// when the process shows how far it got (its temporary file, how large it has grown), never
// after a fixed sleep.
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { BIN, cleanEnv, ROOT, runCoverage } from "../helpers/cli.js";
import { writeMcdExport } from "../helpers/mcd-export.js";
import { scaleTables } from "../helpers/mcd-scale.js";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type Signal = keyof typeof SIGNALS;
const AFTER_COMMIT = path.join(ROOT, "test", "helpers", "signal-after-commit.cjs");
const LATE = path.join(ROOT, "test", "helpers", "signal-late.cjs");

/**
 * The built CLI as a process, with room for a loaded machine: no 60 s limit (runCoverage's),
 * and no SIGKILL after a signal (execa's default after 5 s): the test is what the CLI does
 * with the signal, however long its current step takes to hand over.
 */
function spawnCli(args: string[], env: Record<string, string> = {}) {
  return execa("node", [BIN, ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv(env),
    cwd: ROOT,
    stdin: "ignore",
    forceKillAfterDelay: false,
  });
}

const work = mkdtempSync(path.join(os.tmpdir(), "coverage-out-sig-"));
const fresh = () => mkdtempSync(path.join(work, "o-"));
const dataset = path.join(work, "big.json");
let snapshot = "";
let mcd: string[] = [];

beforeAll(async () => {
  // Large enough to take seconds to build (tens of MB of snapshot), generated, never committed.
  execFileSync(
    "node",
    [
      path.join(ROOT, "bench", "generate-dataset.mjs"),
      ...["--out", dataset, "--versions", "3000", "--links", "150000", "--codes", "8000"],
    ],
    { stdio: "ignore" },
  );
  if (SQLITE) snapshot = await buildSnapshot(dataset);
  mkdirSync(path.join(work, "mcd"));
  mcd = await writeMcdExport(path.join(work, "mcd"), scaleTables(0.1), "all_data");
}, 240_000);

/** Polls a condition (no timing assertion: the limit only bounds how long we wait). */
async function waitFor(what: string, check: () => boolean, limitMs = 180_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The size of the largest temporary file or folder in `dir` (-1 while there is none). */
function tempSize(dir: string): number {
  let size = -1;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(".")) continue;
    // SQLite's journal comes and goes while the writer works: gone between the listing and
    // the stat, it is no temporary file any more.
    const stat = statSync(path.join(dir, name), { throwIfNoEntry: false });
    if (stat) size = Math.max(size, stat.size);
  }
  return size;
}

// How far the writer got when the signal goes: its temporary file has just appeared, or the
// write is well under way. A snapshot's temporary file grows only when SQLite's page cache
// spills, so "under way" there is a second after it appeared (a bound, not a measurement: the
// writer takes several seconds on the data made here); a JSON file is watched grow past 1 MB.
const appeared = new Map<string, number>();
const MOMENTS = {
  "as its temporary file appears": (dir: string) => tempSize(dir) >= 0,
  "mid-write": (dir: string) => {
    if (tempSize(dir) < 0) return false;
    if (readdirSync(dir).some((f) => f.endsWith(".json.tmp") || /\.json\.\d+-\w+\.tmp$/.test(f)))
      return tempSize(dir) >= 1 << 20;
    if (!appeared.has(dir)) appeared.set(dir, Date.now());
    return Date.now() - appeared.get(dir)! >= 1000;
  },
} as const;

const COMMANDS = [
  {
    name: "data build",
    sqlite: true,
    args: (out: string) => ["data", "build", dataset, "-o", path.join(out, "b.db")],
  },
  {
    name: "data export",
    sqlite: true,
    args: (out: string) => ["data", "export", snapshot, "-o", path.join(out, "e.json")],
  },
  {
    name: "data import mcd (.db)",
    sqlite: true,
    args: (out: string) => ["data", "import", "mcd", ...mcd, "-o", path.join(out, "m.db")],
  },
  {
    name: "data import mcd (.json)",
    sqlite: false,
    args: (out: string) => ["data", "import", "mcd", ...mcd, "-o", path.join(out, "m.json")],
  },
];

// Each signal at each moment over the four writers, spread so that every pair is tested on
// some writer without running all 24 (the machine running the suite is small).
const MOMENT_NAMES = Object.keys(MOMENTS) as Array<keyof typeof MOMENTS>;
const SIGNAL_NAMES = Object.keys(SIGNALS) as Signal[];

describe.each(COMMANDS.map((c, i) => ({ ...c, i })))(
  "$name stopped by a signal",
  ({ args, sqlite, i }) => {
    const cases = SIGNAL_NAMES.map((signal, j) => ({
      signal,
      moment: MOMENT_NAMES[(i + j) % MOMENT_NAMES.length]!,
    }));
    it.skipIf(sqlite && !SQLITE).each(cases)(
      "$signal $moment: exit 128+n, nothing at the output path or beside it",
      async ({ signal, moment }) => {
        const out = fresh();
        const child = spawnCli(args(out));
        // The import's small export writes few MB: "mid-write" there is its first text files.
        const reached = MOMENTS[moment];
        await waitFor(moment, () => reached(out) || child.exitCode !== null);
        child.kill(signal);
        const r = await child;
        expect(r.exitCode, r.stderr).toBe(SIGNALS[signal]);
        expect(r.stderr).toContain("nothing was written");
        expect(readdirSync(out)).toEqual([]);
      },
      900_000,
    );

    it.skipIf(sqlite && !SQLITE).each([SIGNAL_NAMES[(i + 1) % SIGNAL_NAMES.length]!])(
      "%s late (indexes being built, or the last bytes written): stopped, or complete",
      async (signal) => {
        const out = fresh();
        const r = await spawnCli(args(out), {
          NODE_OPTIONS: `--require ${LATE}`,
          COVERAGE_TEST_SIGNAL: signal,
        });
        // Stopped before the output is in place (nothing left), or handled once it is (exit 0,
        // the output whole): never a temporary file, never a signal's exit beside an output.
        const left = readdirSync(out);
        expect(
          left.filter((f) => f.startsWith(".")),
          r.stderr,
        ).toEqual([]);
        if (r.exitCode === 0) {
          expect(left.filter((f) => !f.endsWith(".files"))).toHaveLength(1);
          if (left.some((f) => f.endsWith(".db"))) {
            const db = path.join(
              out,
              left.find((f) => f.endsWith(".db"))!,
            );
            const info = await runCoverage(["data", "info", db, "--json"]);
            expect(info.exitCode, info.stderr).toBe(0);
          }
        } else {
          expect(r.exitCode, r.stderr).toBe(SIGNALS[signal]);
          expect(r.stderr).toContain("nothing was written");
          expect(left).toEqual([]);
        }
        // A snapshot yields between its indexing steps: the signal always stops it there.
        if (sqlite && !args(out).some((a) => a.endsWith(".json")))
          expect(r.exitCode, r.stderr).toBe(SIGNALS[signal]);
      },
      900_000,
    );

    it.skipIf(sqlite && !SQLITE).each([SIGNAL_NAMES[i % SIGNAL_NAMES.length]!])(
      "%s right after the output is put in place: exit 0, the file complete",
      async (signal) => {
        const out = fresh();
        const r = await spawnCli(args(out), {
          NODE_OPTIONS: `--require ${AFTER_COMMIT}`,
          COVERAGE_TEST_SIGNAL: signal,
        });
        expect(r.exitCode, r.stderr).toBe(0);
        const files = readdirSync(out).filter((f) => !f.endsWith(".files"));
        expect(files).toHaveLength(1);
        expect(files[0]!.startsWith(".")).toBe(false);
        if (files[0]!.endsWith(".db")) {
          const info = await runCoverage(["data", "info", path.join(out, files[0]!), "--json"]);
          expect(info.exitCode, info.stderr).toBe(0);
        }
      },
      900_000,
    );
  },
);

describe("a failed import leaves nothing", () => {
  it.skipIf(!SQLITE).each([
    { what: "a missing input", inputs: () => [path.join(work, "none.zip")] },
    {
      what: "a truncated zip",
      inputs: () => {
        const cut = path.join(work, "cut.zip");
        writeFileSync(cut, readFileSync(mcd[0]!).subarray(0, 4000));
        return [cut];
      },
    },
  ])("$what, to .db: exit 2, the folder left empty", async ({ inputs }) => {
    const out = fresh();
    const r = await runCoverage([
      "data",
      "import",
      "mcd",
      ...inputs(),
      "-o",
      path.join(out, "x.db"),
    ]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(readdirSync(out)).toEqual([]);
  });
});
