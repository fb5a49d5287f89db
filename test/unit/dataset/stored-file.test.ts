import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveStoredFile } from "../../../src/dataset/load.js";

/** A dataset folder `real/` (with `files/a.pdf` and a subfolder) reached through `via`, a link. */
function layout() {
  const root = mkdtempSync(path.join(os.tmpdir(), "coverage-stored-"));
  const real = path.join(root, "real");
  mkdirSync(path.join(real, "files", "sub"), { recursive: true });
  writeFileSync(path.join(real, "files", "a.pdf"), "12345");
  writeFileSync(path.join(root, "outside.txt"), "secret");
  symlinkSync(real, path.join(root, "via"));
  return { root, real, via: path.join(root, "via") };
}

describe("resolveStoredFile: only regular files really inside the dataset folder", () => {
  it.each([
    { name: "a plain file", link: undefined, file: "files/a.pdf", served: true },
    { name: "a link to a file inside", link: "a.pdf", file: "files/l.pdf", served: true },
    {
      name: "a link out (absolute)",
      link: "$ROOT/outside.txt",
      file: "files/l.pdf",
      served: false,
    },
    {
      name: "a link out (relative ..)",
      link: "../../outside.txt",
      file: "files/l.pdf",
      served: false,
    },
    { name: "a link to the folder itself", link: "..", file: "files/l.pdf", served: false },
    { name: "a folder", link: undefined, file: "files/sub", served: false },
    { name: "a missing file", link: undefined, file: "files/none.pdf", served: false },
    { name: "a dangling link", link: "gone.pdf", file: "files/l.pdf", served: false },
  ])("$name: served $served", ({ link, file, served }) => {
    const { root, real, via } = layout();
    if (link) symlinkSync(link.replace("$ROOT", root), path.join(real, file));
    // The folder reached through a link of its own (macOS's /tmp) changes nothing.
    for (const dir of [real, via]) {
      const got = resolveStoredFile({ dir }, file);
      expect(got !== undefined, dir).toBe(served);
      if (got) expect(got.path.startsWith(realpathSync(real) + path.sep)).toBe(true);
    }
  });

  it("gives the real path and the size", () => {
    const { real, via } = layout();
    expect(resolveStoredFile({ dir: via }, "files/a.pdf")).toEqual({
      path: path.join(realpathSync(real), "files", "a.pdf"),
      size: 5,
    });
  });
});
