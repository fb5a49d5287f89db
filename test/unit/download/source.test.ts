import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { openSource } from "../../../src/download/source.js";
import { startProxy, startScripted } from "../../helpers/server.js";

const options = { signal: new AbortController().signal, timeoutMs: 5000, env: {} };

describe("openSource", () => {
  it("file:// opens the stored file with its size", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-src-")), "f.md");
    writeFileSync(file, "# hello\n");
    const src = await openSource(pathToFileURL(file).href, options);
    const chunks: Buffer[] = [];
    for await (const c of src.stream) chunks.push(c as Buffer);
    await src.close();
    expect(src.size).toBe(8);
    expect(Buffer.concat(chunks).toString()).toBe("# hello\n");
  });

  it.each([
    { url: "file:///no/such/file.pdf", code: 4, text: "the stored file is missing" },
    { url: "ftp://example.org/x.pdf", code: 1, text: "unsupported scheme (ftp:)" },
    { url: "not a url", code: 1, text: "not a URL" },
    { url: "http://127.0.0.1:9/x.pdf?signature=secret", code: 1, text: "connection refused" },
  ])("$url -> exit $code", async ({ url, code, text }) => {
    const p = openSource(url, options);
    await expect(p).rejects.toMatchObject({ exitCode: code });
    const err = (await p.catch((e: unknown) => e)) as Error & { suggestion?: string };
    expect(err.message).toContain(text);
    expect(`${err.message} ${err.suggestion ?? ""}`).not.toContain("secret");
  });

  it("reads the proxy from the run's environment, not process.env", async () => {
    const files = await startScripted((_req, res) => res.end("pdf bytes"));
    // `files.invalid` never resolves: only the proxy (sending it to 127.0.0.1) can reach it.
    const proxy = await startProxy({ local: ["files.invalid"] });
    try {
      const url = `http://files.invalid:${files.port}/f.pdf?sig=s`;
      const src = await openSource(url, { ...options, env: { HTTP_PROXY: proxy.url } });
      const chunks: Buffer[] = [];
      for await (const c of src.stream) chunks.push(c as Buffer);
      await src.close();
      expect(Buffer.concat(chunks).toString()).toBe("pdf bytes");
      expect(proxy.targets).toEqual([`files.invalid:${files.port}`]);
    } finally {
      await proxy.close();
      await files.close();
    }
  });
});
