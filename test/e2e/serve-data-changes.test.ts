// `coverage serve` while another process changes its data file (findings/reliability.md 1j):
// no answer comes from what was kept of data that is gone (a filter's cached list naming a
// version whose detail is 404), and a snapshot held locked past the wait is a 503, not a 500.
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";
import { HTTP_DATA, sendRaw, startServe, type ServeProcess } from "../helpers/server.js";

const KEY = "serve-key-changes";
const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-serve-changes-"));
const GONE = "acme/ACM101/2025-01-01";
const FILTER = JSON.stringify({ policies: { payer_ids: ["ACME"] }, limit: 100 });

let server: ServeProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function listed(url: string): Promise<string[]> {
  const r = await sendRaw(url, "/v1/policies/filter", { method: "POST", key: KEY, body: FILTER });
  expect(r.status, r.text).toBe(200);
  return (r.body as { data: Array<{ policy_id: string }> }).data.map((p) => p.policy_id);
}

/** The test dataset without the version GONE (its key's other versions kept). */
function datasetWithout(id: string): string {
  const data = JSON.parse(readFileSync(HTTP_DATA, "utf8")) as {
    policies: Array<{ policy_id: string }>;
  };
  data.policies = data.policies.filter((p) => p.policy_id !== id);
  return JSON.stringify(data);
}

describe("coverage serve while its data file changes", () => {
  it("a JSON dataset replaced by another process: the filter and the detail agree on the new one", async () => {
    const file = path.join(dir, "live.json");
    writeFileSync(file, readFileSync(HTTP_DATA));
    server = await startServe(["--data", file, "--quiet"], { COVERAGE_SERVE_KEY: KEY });
    // Asked twice: the second answer comes from the server's kept list.
    expect(await listed(server.url)).toContain(GONE);
    expect(await listed(server.url)).toContain(GONE);
    // Replaced as `data build --force` and a pull do: a new file renamed over the old one.
    writeFileSync(file + ".new", datasetWithout(GONE));
    renameSync(file + ".new", file);
    expect(await listed(server.url)).not.toContain(GONE);
    const detail = await sendRaw(server.url, `/v1/policies/${GONE}`, { key: KEY });
    expect(detail.status).toBe(404);
  });

  it.skipIf(!SQLITE)("a snapshot changed in place: the next answer shows the change", async () => {
    const file = await buildSnapshot(HTTP_DATA, path.join(dir, "live.db"));
    server = await startServe(["--data", file, "--quiet"], { COVERAGE_SERVE_KEY: KEY });
    const title = async () => {
      const r = await sendRaw(server!.url, "/v1/policies/filter", {
        method: "POST",
        key: KEY,
        body: FILTER,
      });
      return (r.body as { data: Array<{ policy_id: string; title: string }> }).data.find(
        (p) => p.policy_id === GONE,
      )?.title;
    };
    expect(await title()).toBe("Physical Therapy (ACME)");
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(file);
    db.prepare("UPDATE version SET title = ? WHERE policy_id = ?").run("Renamed in place", GONE);
    db.close();
    expect(await title()).toBe("Renamed in place");
  });

  it.skipIf(!SQLITE)(
    "a snapshot held locked past the wait: 503 with Retry-After, not 500",
    async () => {
      const file = await buildSnapshot(HTTP_DATA, path.join(dir, "locked.db"));
      server = await startServe(["--data", file, "--quiet"], { COVERAGE_SERVE_KEY: KEY });
      const { DatabaseSync } = await import("node:sqlite");
      const db = new DatabaseSync(file);
      // A commit (the server's next request opens the file again) and a lock held meanwhile.
      db.prepare("UPDATE version SET title = ? WHERE policy_id = ?").run("Changed", GONE);
      db.exec("BEGIN EXCLUSIVE");
      db.exec("UPDATE version SET title = title");
      try {
        const r = await sendRaw(server.url, `/v1/policies/${GONE}`, { key: KEY });
        expect(r.status, r.text).toBe(503);
        expect(r.headers.get("retry-after")).toBe("5");
        expect(r.text).toContain("being written by another process");
      } finally {
        db.exec("ROLLBACK");
        db.close();
      }
    },
  );
});
