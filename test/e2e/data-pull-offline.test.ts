// `coverage data pull medicare` when CMS cannot be reached, and on a Node.js without
// node:sqlite: the first-run messages must lead somewhere (issue 37 item 3).
import { mkdtempSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCoverage } from "../helpers/cli.js";
import { SQLITE } from "../helpers/snapshot.js";

/** A loopback port nothing listens on (taken, then released): a host that cannot be reached. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const dataHome = mkdtempSync(path.join(os.tmpdir(), "coverage-pull-offline-"));
const pull = async () => {
  const host = `http://127.0.0.1:${await closedPort()}`;
  return runCoverage(["data", "pull", "medicare", "--source", `${host}/exports/`, "--no-codes"], {
    env: { XDG_DATA_HOME: dataHome, COVERAGE_RETRY_BASE_MS: "5", NO_COLOR: "1" },
  });
};

describe.skipIf(!SQLITE)("coverage data pull medicare with CMS out of reach", () => {
  it("says the host cannot be reached and names the offline import, writing nothing", async () => {
    const r = await pull();
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("connection refused");
    expect(r.stderr).toContain("The host cannot be reached: check the network connection");
    expect(r.stderr).toContain("coverage data import mcd FILES");
    expect(r.stderr).not.toContain("fresh link");
    expect(existsSync(path.join(dataHome, "coverage", "medicare.db"))).toBe(false);
  });
});

describe.skipIf(SQLITE)("coverage data pull medicare on a Node.js without node:sqlite", () => {
  it("says data pull needs Node.js 22.13 (a sentence that agrees)", async () => {
    const r = await pull();
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("data pull (it writes a snapshot) needs Node.js 22.13 or newer");
  });
});
