// `coverage data pull medicare` stopped by SIGINT, SIGTERM or SIGHUP (cli.md, "Files and
// folders"): while a download is under way, and while the import writes the snapshot. Exit
// 130/143/129 and the data folder as it was: no staging folder, no temporary snapshot. Real
// processes, signals sent when the pull shows how far it got (the server has begun a slow body;
// the snapshot's temporary file exists), never after a fixed sleep.
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, ROOT, runCoverage } from "../helpers/cli.js";
import {
  cmsContent,
  HCPCS_PAGE,
  ICD10_PAGE,
  startCms,
  type CmsServer,
} from "../helpers/cms-server.js";
import { scaleTables } from "../helpers/mcd-scale.js";
import { folderState } from "../helpers/folder-state.js";
import { SQLITE } from "../helpers/snapshot.js";

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type Signal = keyof typeof SIGNALS;
const AFTER_COMMIT = path.join(ROOT, "test", "helpers", "signal-after-commit.cjs");
const work = mkdtempSync(path.join(os.tmpdir(), "coverage-pull-sig-"));
let cms: CmsServer;

beforeAll(async () => {
  // Large enough that the import takes seconds (a tenth of the published export).
  cms = await startCms(await cmsContent(path.join(work, "export"), scaleTables(0.1)));
}, 240_000);
afterAll(async () => cms?.close());

/** A first pull into a fresh data folder, as a process (no time limit, no SIGKILL after a signal). */
function pull(dataHome: string, env: Record<string, string> = {}) {
  return execa(
    "node",
    [
      BIN,
      ...["data", "pull", "medicare", "--source", `${cms.url}/exports/`],
      ...["--icd10cm-url", `${cms.url}${ICD10_PAGE}`, "--hcpcs-url", `${cms.url}${HCPCS_PAGE}`],
    ],
    {
      reject: false,
      extendEnv: false,
      env: cleanEnv({
        XDG_DATA_HOME: dataHome,
        COVERAGE_RETRY_BASE_MS: "5",
        NO_COLOR: "1",
        ...env,
      }),
      cwd: ROOT,
      stdin: "ignore",
      forceKillAfterDelay: false,
    },
  );
}

/** Polls a condition (no timing assertion: the limit only bounds how long we wait). */
async function waitFor(what: string, check: () => boolean, limitMs = 180_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What the pull left in the data folder (the folder itself may be gone: a first pull). */
const leftIn = (folder: string) => (existsSync(folder) ? readdirSync(folder) : []);

describe.skipIf(!SQLITE)("data pull medicare stopped by a signal", () => {
  it.each(["SIGTERM", "SIGHUP"] as Signal[])(
    "%s during a download: exit 128+n, nothing in the data folder",
    async (signal) => {
      const dataHome = mkdtempSync(path.join(work, "home-"));
      const folder = path.join(dataHome, "coverage");
      const name = "/exports/ncd.zip";
      cms.slow.add(name);
      try {
        const child = pull(dataHome);
        await Promise.race([cms.slowStarted, child]);
        // The staging folder holds the body's first bytes by now, or soon: wait for it.
        await waitFor(
          "the staging folder",
          () => leftIn(folder).some((f) => f.startsWith(".")) || child.exitCode !== null,
        );
        child.kill(signal);
        const r = await child;
        expect(r.exitCode, r.stderr).toBe(SIGNALS[signal]);
        // A first pull: the data folder as it was, that is not there at all.
        expect(existsSync(folder), leftIn(folder).join(", ")).toBe(false);
      } finally {
        cms.slow.delete(name);
      }
    },
    900_000,
  );

  it.each(["SIGTERM", "SIGHUP", "SIGINT"] as Signal[])(
    "%s while the import writes the snapshot: exit 128+n, no staging folder, no temporary snapshot",
    async (signal) => {
      const dataHome = mkdtempSync(path.join(work, "home-"));
      const folder = path.join(dataHome, "coverage");
      const child = pull(dataHome);
      await waitFor(
        "the temporary snapshot",
        () => leftIn(folder).some((f) => f.startsWith(".medicare.db.")) || child.exitCode !== null,
      );
      child.kill(signal);
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(SIGNALS[signal]);
      // A first pull: the data folder as it was, that is not there at all.
      expect(existsSync(folder), leftIn(folder).join(", ")).toBe(false);
    },
    900_000,
  );

  it.each(["SIGTERM", "SIGHUP"] as Signal[])(
    "%s right after the new snapshot is put in place: exit 0, the snapshot whole, no staging folder",
    async (signal) => {
      const dataHome = mkdtempSync(path.join(work, "home-"));
      const folder = path.join(dataHome, "coverage");
      const r = await pull(dataHome, {
        NODE_OPTIONS: `--require ${AFTER_COMMIT}`,
        COVERAGE_TEST_SIGNAL: signal,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(leftIn(folder).filter((f) => f.startsWith("."))).toEqual([]);
      expect(leftIn(folder)).toContain("medicare.db");
      const info = await runCoverage(["data", "info", path.join(folder, "medicare.db"), "--json"]);
      expect(info.exitCode, info.stderr).toBe(0);
    },
    900_000,
  );

  it("SIGINT while a second pull carries the history into the new snapshot: the folder as it was", async () => {
    const dataHome = mkdtempSync(path.join(work, "home-"));
    const folder = path.join(dataHome, "coverage");
    const first = await pull(dataHome);
    expect(first.exitCode, first.stderr).toBe(0);
    const before = folderState(folder);
    // --force: the import runs again over the previous snapshot (the history's path).
    const child = execa(
      "node",
      [
        BIN,
        ...["data", "pull", "medicare", "--force", "--source", `${cms.url}/exports/`],
        ...["--icd10cm-url", `${cms.url}${ICD10_PAGE}`, "--hcpcs-url", `${cms.url}${HCPCS_PAGE}`],
      ],
      {
        reject: false,
        extendEnv: false,
        env: cleanEnv({ XDG_DATA_HOME: dataHome, COVERAGE_RETRY_BASE_MS: "5", NO_COLOR: "1" }),
        cwd: ROOT,
        stdin: "ignore",
        forceKillAfterDelay: false,
      },
    );
    await waitFor(
      "the temporary snapshot",
      () => leftIn(folder).some((f) => f.startsWith(".medicare.db.")) || child.exitCode !== null,
    );
    child.kill("SIGINT");
    const r = await child;
    expect(r.exitCode, r.stderr).toBe(SIGNALS.SIGINT);
    expect(folderState(folder)).toEqual(before);
  }, 900_000);
});
