import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { policy } from "../helpers/build-db.js";
import { onTty } from "../helpers/tty.js";

const ESC = "\u001b";

describe("on a terminal", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-tty-"));
  const data = path.join(dir, "dataset.json");
  writeFileSync(
    data,
    JSON.stringify({
      format: "coverage-dataset",
      version: 1,
      as_of: "2026-01-15",
      payers: [{ payer_id: "X", display_name: "X Health" }],
      lobs: [{ lob_id: "X_commercial_US", payer_id: "X", lob: "commercial", state: null }],
      policies: [
        policy("x/links/2025-01-01", {
          title: "Links \u202eevil",
          summary: "csi \u009b2J del \u007f end",
          criteria_text:
            "See [the CMS manual](https://evil.example/x) and <https://example.org/a>.",
          applicability: [{ lob_id: "X_commercial_US", from: "2025-01-01", to: null }],
        }),
      ],
    }),
  );

  it.each(["1", "0"])(
    "criteria links show their target, never a hidden OSC 8 hyperlink (FORCE_HYPERLINK=%s)",
    async (force) => {
      const r = await onTty(["--data", data, "policy", "x/links/2025-01-01"], {
        FORCE_HYPERLINK: force,
      });
      expect(r.exitCode, r.stdout).toBe(0);
      expect(r.stdout).toContain("the CMS manual (https://evil.example/x)");
      expect(r.stdout).toContain("https://example.org/a");
      expect(r.stdout).not.toContain(`${ESC}]8;`);
    },
  );

  it("bidi overrides in the data do not reach the terminal", async () => {
    const r = await onTty(["--data", data, "search", "links"]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain("Links evil");
    expect(r.stdout).not.toContain("\u202e");
  });

  // JSON.stringify leaves C1 controls (U+009B opens an escape sequence) and bidi controls raw.
  it.each([["--json"], ["--format", "ndjson"]])(
    "%s on a terminal writes them as \\u escapes: the same data, nothing raw",
    async (...format) => {
      const r = await onTty(["-q", "--data", data, "search", "links", ...format]);
      expect(r.exitCode, r.stdout).toBe(0);
      expect(r.stdout).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
      expect(r.stdout).toContain("Links \\u202eevil");
      const text = r.stdout.trim();
      const item = format[0] === "--json" ? JSON.parse(text).data[0] : JSON.parse(text);
      expect([item.title, item.summary]).toEqual([
        "Links \u202eevil",
        "csi \u009b2J del \u007f end",
      ]);
    },
  );
});
