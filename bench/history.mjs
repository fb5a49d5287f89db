// `npm run bench history`: the catalogue's history across weekly pulls (issue 40). A loopback
// CMS serves the generated export (test/helpers/mcd-scale.ts; BENCH_HISTORY_FACTOR scales it,
// default 1 = the published size) as N weekly exports: in week k, 1% of the LCDs (those whose
// row index is k mod 100) get a new version (version number + 1, effective on the week's date,
// a sentence added to the indication, every table keyed on it following), and their rows'
// last_updated is the week's date. Reports:
//   - the snapshot's size (medicare.db + medicare.files/) after each pull, against the target
//     "after N pulls <= 1.5x one pull + the changed versions' own size" (a version's own size
//     estimated as the first snapshot's size over its versions);
//   - a pull with changes against `data import mcd` of the same files (the import alone);
//   - `versions` and `diff` of a changed LCD on the result against `node -e 0`.
// Env: BENCH_HISTORY_WEEKS (default 8; 52 for the year the target speaks of),
//      BENCH_HISTORY_FACTOR (default 1), BENCH_HISTORY_RUNS (versions/diff runs, default 10).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import {
  BIN,
  OUT,
  cleanEnv,
  fmt,
  info,
  interleave,
  median,
  printTable,
  runTimed,
  verdict,
} from "./lib.mjs";
import { cmsFiles, readZipBuffer, serve, zipOf } from "./data-pull.mjs";
import { ensureExport } from "./mcd-import.mjs";

const WEEKS = Number(process.env.BENCH_HISTORY_WEEKS ?? 8);
const FACTOR = Number(process.env.BENCH_HISTORY_FACTOR ?? 1);
const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 10);
const DIR = path.join(OUT, "history");

/** The generated export's args (the bench's own, or a scaled one written here once). */
const exportArgs = () =>
  FACTOR === 1 ? ensureExport() : ensureExport(path.join(DIR, `export-${FACTOR}`), FACTOR);

const day = (k) => new Date(Date.UTC(2030, 0, 1) + 7 * 86_400_000 * k).toISOString().slice(0, 10);
const column = (header, name) => header.find((h) => h.toLowerCase() === name);

/** The LCD export of week k: the base tables with weeks 2..k's new versions applied. */
export async function lcdWeek(base, k) {
  // Which LCDs changed by week k, and how often (each at most once in 100 weeks).
  const lcd = base.get("lcd.csv");
  const idCol = column(lcd.header, "lcd_id");
  const changed = new Map();
  lcd.rows.forEach((r, i) => {
    for (let w = 2; w <= k; w++) if (i % 100 === w % 100) changed.set(r[idCol], w);
  });
  const files = [];
  for (const [name, t] of base) {
    const id = column(t.header, "lcd_id");
    const ver = column(t.header, "lcd_version");
    const upd = column(t.header, "last_updated");
    const rows = t.rows.map((r) => {
      const w = id ? changed.get(r[id]) : undefined;
      if (w === undefined) return r;
      const out = { ...r, [ver]: String(Number(r[ver]) + 1) };
      if (upd) out[upd] = `${day(w)} 00:00:00`;
      if (name === "lcd.csv") {
        out[column(t.header, "rev_eff_date")] = `${day(w)} 00:00:00`;
        const ind = column(t.header, "indication");
        out[ind] = `${r[ind]}<p>Revised in week ${w}.</p>`;
      }
      return out;
    });
    const text = stringify(rows, { header: true, columns: t.header, record_delimiter: "\r\n" });
    files.push([name, Buffer.from(text, "latin1")]);
  }
  return { zip: await zipOf([["current_lcd_csv.zip", await zipOf(files)]]), changed };
}

/** The served LCD tables, decoded byte for byte (latin1) so that unchanged rows stay as written. */
export async function readLcdTables(files) {
  const base = new Map();
  const outer = await readZipBuffer(files.get("/exports/current_lcd.zip"));
  for (const [name, inner] of outer) {
    if (!name.endsWith("_csv.zip")) continue;
    for (const [file, bytes] of await readZipBuffer(inner)) {
      const all = parse(bytes.toString("latin1"), { relax_column_count: true });
      const header = all[0];
      base.set(file, {
        header,
        rows: all.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""]))),
      });
    }
  }
  return base;
}

/** The generated export's args (the bench's own, or a scaled one written here once). */
export const historyExportArgs = () => exportArgs();

function sizeOf(target) {
  if (!existsSync(target)) return 0;
  const info_ = statSync(target);
  if (!info_.isDirectory()) return info_.size;
  return readdirSync(target).reduce((n, f) => n + sizeOf(path.join(target, f)), 0);
}

/** The bench part. */
export async function history() {
  console.log(
    `\n## history: ${WEEKS} weekly pulls of the generated export (factor ${FACTOR}) from a loopback CMS (load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; wall-clock figures on a loaded machine are marked so)`,
  );
  rmSync(DIR + "/run", { recursive: true, force: true });
  mkdirSync(path.join(DIR, "run"), { recursive: true });
  const files = await cmsFiles(exportArgs());
  const base = await readLcdTables(files);
  const versionsOne = Number(base.get("lcd.csv").rows.length);
  const { server, url, put } = await serve(files);
  const home = path.join(DIR, "run", "data-home");
  const env = cleanEnv({ XDG_DATA_HOME: home });
  const folder = path.join(home, "coverage");
  const pullArgs = [
    BIN,
    ...["data", "pull", "medicare", "--source", `${url}/exports/`],
    ...["--icd10cm-url", `${url}/files/icd10cm.zip`, "--hcpcs-url", `${url}/files/hcpcs.zip`],
  ];
  const rows = [];
  let first = 0;
  let firstVersions = 0;
  let lastChanged;
  // The versions the pulls added: one per document change (each week's revised LCDs).
  let added = 0;
  const pulls = [];
  const imports = [];
  try {
    for (let k = 1; k <= WEEKS; k++) {
      let week;
      if (k > 1) {
        week = await lcdWeek(base, k);
        put("/exports/current_lcd.zip", week.zip);
        lastChanged = [...week.changed.keys()].at(-1);
      }
      const p = await runTimed(process.execPath, [...pullArgs, ...(k === 1 ? [] : ["--json"])], {
        env,
        keepStdout: true,
      });
      if (p.code !== 0) throw new Error(`pull of week ${k} failed:\n${p.stderr}`);
      const size =
        sizeOf(path.join(folder, "medicare.db")) + sizeOf(path.join(folder, "medicare.files"));
      const changes = k === 1 ? 0 : JSON.parse(p.stdout).changes.length;
      if (k === 1) {
        first = size;
        const info_ = spawnSync(process.execPath, [BIN, "data", "info", "medicare", "--json"], {
          env,
          encoding: "utf8",
        });
        firstVersions = JSON.parse(info_.stdout).versions ?? versionsOne;
      } else if (k <= 3) {
        // Weeks 2 and 3: the pull with changes against the import alone (later weeks: size only).
        pulls.push(p.ms);
        // The import alone of the same files, for the pull's own cost with changes.
        const saved = path.join(DIR, "run", "files");
        mkdirSync(saved, { recursive: true });
        const names = ["ncd.zip", "current_lcd.zip", "current_article.zip"];
        for (const n of names)
          writeFileSync(
            path.join(saved, n),
            n === "current_lcd.zip" ? week.zip : files.get(`/exports/${n}`),
          );
        writeFileSync(path.join(saved, "icd10cm.zip"), files.get("/files/icd10cm.zip"));
        writeFileSync(path.join(saved, "hcpcs.zip"), files.get("/files/hcpcs.zip"));
        const imp = await runTimed(process.execPath, [
          BIN,
          ...["data", "import", "mcd", ...names.map((n) => path.join(saved, n))],
          ...[
            "--icd10cm",
            path.join(saved, "icd10cm.zip"),
            "--hcpcs",
            path.join(saved, "hcpcs.zip"),
          ],
          ...["-o", path.join(DIR, "run", "imported.db"), "--force"],
        ]);
        if (imp.code !== 0) throw new Error(`import failed:\n${imp.stderr}`);
        imports.push(imp.ms);
      }
      added += changes;
      rows.push([String(k), fmt(p.ms), String(changes), `${fmt(size / 1e6, 1)} MB`]);
    }
  } finally {
    server.close();
  }
  printTable(["week", "pull ms (loaded)", "document changes", "medicare.db + files"], rows);
  const last =
    sizeOf(path.join(folder, "medicare.db")) + sizeOf(path.join(folder, "medicare.files"));
  const perVersion = first / Math.max(1, firstVersions);
  const bound = 1.5 * first + added * perVersion;
  verdict(
    `size after ${WEEKS} pulls <= 1.5x one pull + the changed versions' own size`,
    last <= bound,
    `${fmt(last / 1e6, 1)} MB vs ${fmt(bound / 1e6, 1)} MB (one pull ${fmt(first / 1e6, 1)} MB; ${added} versions added, ~${fmt(perVersion / 1e3, 1)} KB each on average)`,
  );
  if (pulls.length) {
    const ratio = median(pulls) / median(imports);
    info(
      "pull with changes vs the import alone (loaded)",
      `${fmt(median(pulls))} ms vs ${fmt(median(imports))} ms: ${fmt(ratio, 2)}x; the target (1.2x of today's pull) is for the integrator, against a build of main with BENCH_BASELINE`,
    );
  }
  if (lastChanged !== undefined) {
    const key = `cms-lcd/L${lastChanged}`;
    const results = await interleave(
      [
        { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
        {
          name: `versions ${key}`,
          cmd: process.execPath,
          args: [BIN, "--data", "medicare", "versions", key],
          env,
        },
        {
          name: `diff ${key}`,
          cmd: process.execPath,
          args: [BIN, "--data", "medicare", "diff", key],
          env,
        },
      ],
      RUNS,
    );
    const ms = (name) => median(results.get(name).ms);
    const floor = ms("node -e 0");
    printTable(
      ["case", "median ms (loaded)"],
      [...results.keys()].map((name) => [name, fmt(ms(name))]),
    );
    for (const name of [...results.keys()].slice(1))
      verdict(
        `${name} <= 2.0x node -e 0 + 20 ms`,
        ms(name) <= 2 * floor + 20,
        `${fmt(ms(name))} ms vs ${fmt(2 * floor + 20)} ms (loaded)`,
      );
  }
}
