import { createHash } from "node:crypto";
import { createReadStream, rmdirSync, statSync } from "node:fs";
import { copyFile, link, mkdir, readdir, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { CommandContext, RunEnvironment } from "../cli/context.js";
import { resolveDataDir } from "../dataset/data-dir.js";
import { redactUrl } from "../backend/http-redact.js";
import { formatBytes, formatDuration } from "../download/progress.js";
import { createTempOutput, outputComplete } from "../files/temp-output.js";
import { isProcessAlive, removeStaleTemps } from "../download/stale-temps.js";
import { runTerminable } from "../download/termination.js";
import { UnexpectedError, UsageError } from "../errors.js";
import { runMcdImport } from "../import/mcd/run.js";
import { loadSqlite } from "../snapshot/sqlite.js";
import { listFutureRetirements, type FutureRetirement } from "../snapshot/cms-record-table.js";
import { countChanges } from "./changes.js";
import { openPullHistory } from "./history.js";
import { fetchFile, fetchPage, type Validators } from "./fetch.js";
import { readManifest, writeManifest, type ManifestFile, type PullManifest } from "./manifest.js";
import { findCodeFileLink, isZipUrl, type CodeFileKind } from "./page-links.js";
import { createPullProgress } from "./progress.js";
import { formatChanges, MEDICARE_NAME } from "./summary.js";
import { pullFetchOptions } from "./fetch-options.js";
import { resolvePullLimits } from "./wire-limits.js";
import { findZipDamage } from "./zip-check.js";

/** The flags of `coverage data pull medicare` as commander parses them. */
export interface PullFlags {
  history?: boolean;
  /** `--no-codes` makes this false. */
  codes?: boolean;
  force?: boolean;
  source?: string;
  icd10cmUrl?: string;
  hcpcsUrl?: string;
  /** Seconds without a byte before a download is given up (wire-limits.ts). */
  stallTimeout?: string;
  /** Seconds a file may take in all (default: from its size). */
  deadline?: string;
}

/** CMS's exports folder, regenerated daily (cli.md). */
export const DEFAULT_SOURCE =
  "https://downloads.cms.gov/medicare-coverage-database/downloads/exports/";
/** The pages that link the current code files (their names change every year and quarter). */
export const CODE_PAGES: Record<CodeFileKind, string> = {
  icd10cm: "https://www.cms.gov/medicare/coding-billing/icd-10-codes",
  hcpcs:
    "https://www.cms.gov/medicare/coding-billing/healthcare-common-procedure-system/quarterly-update",
};
const CODE_FLAGS: Record<CodeFileKind, string> = {
  icd10cm: "--icd10cm-url",
  hcpcs: "--hcpcs-url",
};
const CODE_WHAT: Record<CodeFileKind, string> = {
  icd10cm: "the ICD-10-CM code descriptions (tabular order)",
  hcpcs: "the HCPCS Level II alpha-numeric file",
};

/** The snapshot `data pull medicare` writes, in the data folder. */
export const MEDICARE = MEDICARE_NAME;

interface Planned {
  name: string;
  role: ManifestFile["role"];
  url: string;
  page: string | null;
  fix: string;
}

interface Fetched extends Planned {
  /** Where its bytes are: the new download, or the copy the last pull kept. */
  file: string;
  changed: boolean;
  entry: ManifestFile;
}

function checkUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `${flag} ${value}: not a URL`,
      `Give an http(s) address, e.g. ${flag} ${DEFAULT_SOURCE}`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${flag} ${value}: not an http(s) address`, `Give an http(s) address.`);
  return url.href;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * `coverage data pull medicare`: downloads the MCD exports and the two code files, checks each
 * zip, imports them as `data import mcd` does into `medicare.db` of the data folder, and keeps
 * a manifest for the next pull's conditional requests. The previous snapshot is replaced only
 * once the import succeeded; a failure or a signal leaves the folder as it was.
 */
export async function pullMedicare(
  flags: PullFlags,
  ctx: CommandContext,
  run: RunEnvironment,
): Promise<void> {
  // Before any download: a snapshot cannot be written on Node 20 (exit 2, naming the version).
  await loadSqlite("data pull (it writes a snapshot) needs");
  const source = checkUrl(flags.source ?? DEFAULT_SOURCE, "--source");
  const base = source.endsWith("/") ? source : `${source}/`;
  const codes = flags.codes !== false;
  const limits = resolvePullLimits(flags, ctx.env);
  const given: Record<CodeFileKind, string | undefined> = {
    icd10cm: flags.icd10cmUrl && checkUrl(flags.icd10cmUrl, "--icd10cm-url"),
    hcpcs: flags.hcpcsUrl && checkUrl(flags.hcpcsUrl, "--hcpcs-url"),
  };

  const dir = await resolveDataDir(ctx.env);
  const target = path.join(dir, `${MEDICARE}.db`);
  const manifestFile = path.join(dir, `${MEDICARE}.manifest.json`);
  const sourcesDir = path.join(dir, `${MEDICARE}.sources`);
  const madeDir = !(await readdir(dir).then(
    () => true,
    () => false,
  ));
  await mkdir(dir, { recursive: true });
  let done = false;
  // A first pull that failed leaves no data folder behind either (only when it is empty): on
  // the way out, or at exit when a signal ends the process mid-import.
  const removeMadeDir = () => {
    if (!done && madeDir)
      try {
        rmdirSync(dir);
      } catch {
        // Not empty, or gone.
      }
  };
  const previous = await readManifest(manifestFile);
  const progress = await createPullProgress(ctx.io, ctx.settings.quiet);
  const say = (line: string) => {
    if (!ctx.settings.quiet) ctx.io.stderr.write(`${line}\n`);
  };

  // The pull's own folder for its downloads (and the old snapshot, for the summary), in the
  // data folder so that files are renamed into place, never copied. A temporary output never
  // committed (temp-output.ts): removed on the way out, and at exit should a signal end the
  // process first (the import's, or a second Ctrl-C).
  const stagingOf = path.join(dir, `${MEDICARE}.pull`);
  await removeStaleTemps(stagingOf, Date.now(), isProcessAlive, true);
  const stagingOutput = createTempOutput(stagingOf, {
    kind: "folder",
    onSignal: "owner",
    ending: "part",
  });
  // Made when the first body comes: a pull that finds nothing changed writes nothing at all.
  const staging = stagingOutput.path;
  const makeStaging = () => mkdir(staging, { recursive: true }).then(() => undefined);
  const removeStaging = () => stagingOutput.discard();
  const unstage = (text: string) => text.split(`${staging}${path.sep}`).join("");
  // After temp-output's own exit hook (installed by the line above at the latest), so the
  // staging folder is gone when this one runs.
  process.once("exit", removeMadeDir);
  try {
    await runTerminable(ctx.signal, async (signal) => {
      const fetchOptions = pullFetchOptions(ctx, signal, say, limits);

      // --- what to fetch ---------------------------------------------------------------------
      const exports = flags.history
        ? ["ncd.zip", "all_lcd.zip", "all_article.zip"]
        : ["ncd.zip", "current_lcd.zip", "current_article.zip"];
      const plan: Planned[] = exports.map((name) => ({
        name,
        role: "mcd",
        url: new URL(name, base).href,
        page: null,
        fix: "--source URL (the folder that holds the exports)",
      }));
      if (codes)
        for (const kind of ["icd10cm", "hcpcs"] as const) {
          const flag = CODE_FLAGS[kind];
          const fix = `${flag} URL (the zip itself, or a page that links it), or --no-codes`;
          const url = given[kind] ?? CODE_PAGES[kind];
          if (isZipUrl(url)) {
            plan.push({ name: `${kind}.zip`, role: kind, url, page: null, fix });
            continue;
          }
          const html = await fetchPage(
            url,
            fetchOptions(`the ${kind === "icd10cm" ? "ICD-10-CM" : "HCPCS"} page`, fix),
          );
          const link = findCodeFileLink(html, url, kind);
          if (!link)
            throw new UnexpectedError(
              `no link to ${CODE_WHAT[kind]} on ${redactUrl(url)}`,
              `Give the zip's address with ${flag} URL, or skip the code files with --no-codes.`,
            );
          plan.push({ name: `${kind}.zip`, role: kind, url: link, page: url, fix });
        }

      // --- downloads, each conditional on what the last pull kept ---------------------------
      const fetched: Fetched[] = [];
      const download = async (p: Planned, conditional: boolean): Promise<Fetched> => {
        const kept = path.join(sourcesDir, p.name);
        const last = previous?.files.find((f) => f.name === p.name && f.url === p.url);
        const ask: Validators | undefined =
          conditional && last && !flags.force && isFile(kept) && statSync(kept).size === last.size
            ? { etag: last.etag, lastModified: last.last_modified }
            : undefined;
        const temp = path.join(staging, p.name);
        await unlink(temp).catch(() => undefined);
        const bar = progress(p.name);
        const started = Date.now();
        try {
          const got = await fetchFile(p.url, temp, ask, {
            ...fetchOptions(p.name, p.fix),
            progress: bar,
            prepare: makeStaging,
          });
          if (!got.changed) {
            bar.done(`${p.name}: not changed since the last pull`);
            return { ...p, file: kept, changed: false, entry: last! };
          }
          bar.done(
            `${p.name}: ${formatBytes(got.size)} in ${formatDuration((Date.now() - started) / 1000)}`,
          );
          const entry: ManifestFile = {
            name: p.name,
            role: p.role,
            url: p.url,
            page: p.page,
            etag: got.etag,
            last_modified: got.lastModified,
            size: got.size,
            sha256: got.sha256,
          };
          return { ...p, file: temp, changed: true, entry };
        } catch (err) {
          bar.fail();
          throw err;
        }
      };
      for (const p of plan) fetched.push(await download(p, true));

      const sameChoice =
        previous !== undefined &&
        previous.history === Boolean(flags.history) &&
        previous.codes === codes &&
        previous.files.length === fetched.length;
      if (!flags.force && sameChoice && isFile(target) && fetched.every((f) => !f.changed)) {
        done = true;
        say(`Medicare catalogue already current (as of ${previous.as_of ?? "an unknown date"})`);
        if (ctx.settings.format === "json") {
          const future_retirements = await readFutureRetirements(target);
          ctx.io.stdout.write(
            `${JSON.stringify({ as_of: previous.as_of, previous_as_of: previous.as_of, changes: [], future_retirements }, null, 2)}\n`,
          );
        }
        return;
      }

      // --- every zip whole before the import -------------------------------------------------
      for (const [i, f] of fetched.entries()) {
        // The copy the last pull kept must still be what it fetched; if not, fetch it again.
        if (!f.changed && (await sha256Of(f.file)) !== f.entry.sha256)
          fetched[i] = await download(f, false);
      }
      for (const f of fetched) {
        const damage = f.changed
          ? await findZipDamage(
              f.file,
              `${f.name} from ${redactUrl(f.url)}`,
              `Nothing was changed. It is not the file CMS publishes there: check ${f.fix}.`,
            )
          : undefined;
        if (damage)
          throw new UnexpectedError(
            `${f.name} from ${redactUrl(f.url)} is not a whole zip (${damage})`,
            `Nothing was changed. Try again later (a download cut short), or check ${f.fix}.`,
          );
      }

      // --- import, then the snapshot replaces the old one -----------------------------------
      let before: string | undefined;
      if (isFile(target)) {
        // The old snapshot, kept under a temporary name for the summary of what changed.
        before = path.join(staging, "before.db");
        await makeStaging();
        await link(target, before).catch(() => copyFile(target, before!));
      }
      const file = (role: ManifestFile["role"]) => fetched.find((f) => f.role === role)?.file;
      const history = await openPullHistory(before, dir, Boolean(flags.force), (m) => ctx.warn(m));
      const report = await runMcdImport(
        fetched.filter((f) => f.role === "mcd").map((f) => f.file),
        {
          output: target,
          icd10cm: file("icd10cm"),
          hcpcs: file("hcpcs"),
          force: true,
          source: `CMS Medicare Coverage Database, pulled from ${redactUrl(base)}`,
          wrapSink: history.wrap,
          alsoRead: history.readers,
        },
        // Its files named as fetched, never by the staging folder (gone when the message is read).
        {
          ...ctx,
          signal,
          warn: (m) => ctx.warn(unstage(m)),
          notice: (m) => ctx.notice(unstage(m)),
        },
      )
        .catch((err: unknown) => {
          if (err instanceof Error) err.message = unstage(err.message);
          throw err;
        })
        .finally(() => history.close());
      // The new snapshot is in place: a Ctrl-C from here on does not make the pull a failure.
      done = true;
      run.completed?.();
      outputComplete();

      await mkdir(sourcesDir, { recursive: true });
      for (const f of fetched)
        if (f.changed) {
          await rename(f.file, path.join(sourcesDir, f.name));
        }
      const keep = new Set(fetched.map((f) => f.name));
      for (const name of await readdir(sourcesDir))
        if (!keep.has(name)) await unlink(path.join(sourcesDir, name)).catch(() => undefined);
      const manifest: PullManifest = {
        format: 1,
        name: MEDICARE,
        pulled_at: new Date().toISOString(),
        as_of: report.asOf,
        source: redactUrl(base),
        history: Boolean(flags.history),
        codes,
        files: fetched.map((f) => f.entry),
      };
      await writeManifest(manifestFile, manifest);

      const changes = history.changes();
      if (before) say(formatChanges(countChanges(changes)));
      const carried = history.carriedRows();
      if (carried !== null)
        say(
          `Kept the imported edits, fees and prior-authorization lists (${carried} rows) from the previous snapshot`,
        );
      if (ctx.settings.format === "json") {
        // As `data changes` gives them: with the retirements CMS has announced.
        const future_retirements = await readFutureRetirements(target);
        ctx.io.stdout.write(
          `${JSON.stringify({ as_of: report.asOf, previous_as_of: history.previousAsOf, changes, future_retirements }, null, 2)}\n`,
        );
      }
    });
  } finally {
    removeStaging();
    removeMadeDir();
    process.removeListener("exit", removeMadeDir);
  }
}

/** The retirements CMS has announced, as a snapshot file keeps them (`data changes` gives the same). */
async function readFutureRetirements(file: string): Promise<FutureRetirement[]> {
  const { DatabaseSync } = await loadSqlite();
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return listFutureRetirements(db);
  } finally {
    db.close();
  }
}
