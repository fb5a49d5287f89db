import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { HTTP_DATA, sendRaw, startServe, type ServeProcess } from "../helpers/server.js";

const SECRET = "root:x:0:0:not-for-download\n";

/**
 * A copy of a fixture dataset in a fresh folder, beside a secret file outside it. `links` are
 * symbolic links to make in its `files/` (name -> target); the other files are copied.
 */
function datasetWithLinks(
  fixture: string,
  links: Record<string, string>,
): { data: string; files: string; secret: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "coverage-links-"));
  const secret = path.join(root, "secret.txt");
  writeFileSync(secret, SECRET);
  const folder = path.join(root, "dataset");
  const files = path.join(folder, "files");
  mkdirSync(files, { recursive: true });
  const data = path.join(folder, "dataset.json");
  copyFileSync(fixture, data);
  const from = path.join(path.dirname(fixture), "files");
  for (const name of ["pt.pdf", "pt.md", "p1.pdf", "p1.md", "p2.html"]) {
    if (links[name] !== undefined)
      symlinkSync(links[name].replace("$SECRET", secret), path.join(files, name));
    else {
      try {
        copyFileSync(path.join(from, name), path.join(files, name));
      } catch {
        // Not in this fixture.
      }
    }
  }
  return { data, files, secret };
}

describe("stored files that are symbolic links: local engine", () => {
  it("a link out of the dataset folder is not served by download -o - (exit 4, nothing on stdout)", async () => {
    const { data } = datasetWithLinks(RULES_DATA, { "pt.pdf": "$SECRET" });
    const r = await runInProcess(["--data", data, "download", "a/pt/2025-01-01", "-o", "-"]);
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("a/pt/2025-01-01 has no stored original file");
  });

  it("a relative link that climbs out with .. is refused too", async () => {
    const { data } = datasetWithLinks(RULES_DATA, { "pt.pdf": "../../secret.txt" });
    const r = await runInProcess(["--data", data, "download", "a/pt/2025-01-01", "-o", "-"]);
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stdout).not.toContain("not-for-download");
  });

  it("a link to a file inside the folder is served", async () => {
    const { data, files } = datasetWithLinks(RULES_DATA, { "pt.md": "pt-real.md" });
    writeFileSync(path.join(files, "pt-real.md"), "# inside\n");
    const r = await runInProcess([
      "--data",
      data,
      "download",
      "a/pt/2025-01-01",
      "--text",
      "-o",
      "-",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("# inside");
  });
});

describe("stored files that are symbolic links: coverage serve", () => {
  let server: ServeProcess;
  let files: string;
  let secret: string;
  const api = (p: string) => sendRaw(server.url, p, { key: "k" });

  beforeAll(async () => {
    ({ files, secret } = datasetWithLinks(HTTP_DATA, { "p2.html": "$SECRET" }));
    server = await startServe(["--data", path.join(path.dirname(files), "dataset.json")]);
  });
  afterAll(async () => {
    await server.stop();
  });

  it("download-url answers 404 for a file that links out of the folder", async () => {
    const r = await api("/v1/policies/acme/ACM102/2025-01-01/download-url");
    expect([r.status, r.body]).toEqual([404, { detail: "No file stored for this policy" }]);
  });

  it("a signed link handed out before the file became a link out answers 404, not the target", async () => {
    const r = await api("/v1/policies/acme/ACM101/2025-01-01/download-url?variant=display");
    expect(r.status).toBe(200);
    const { url } = r.body as { url: string };
    const target = path.join(files, "p1.pdf");
    rmSync(target);
    symlinkSync(secret, target);
    const file = await fetch(url);
    const text = await file.text();
    expect(file.status).toBe(404);
    expect(text).not.toContain("not-for-download");
    expect(JSON.parse(text)).toEqual({ detail: "No file stored for this policy" });
  });

  it("files inside the folder are still served", async () => {
    const r = await api("/v1/policies/acme/ACM101/2025-01-01/download-url?variant=text");
    const file = await fetch((r.body as { url: string }).url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(
      readFileSync(path.join(path.dirname(HTTP_DATA), "files", "p1.md"), "utf8"),
    );
  });
});
