// policy_versions' text: each version's CMS revision and, on the latest, the retirement CMS has
// announced (a pulled snapshot's future-retire tables), as `versions` shows them.
import { describe, expect, it } from "vitest";
import { renderAnswer } from "../../../src/mcp/render.js";
import type { VersionsReport } from "../../../src/views/versions.js";

const version = (from: string, extra: Partial<VersionsReport["versions"][number]> = {}) => ({
  policy_id: `cms-article/A60249/${from}`,
  policy_number: "A60249",
  title: "Billing and Coding",
  effective_from_date: from,
  effective_to_date: null,
  status: "active" as const,
  changes: null,
  ...extra,
});

describe("policy_versions text", () => {
  it("says when CMS will retire the document, on its latest version only", () => {
    const report: VersionsReport = {
      key: "cms-article/A60249",
      versions: [
        version("2025-01-01", { effective_to_date: "2026-01-01", status: "retired" }),
        version("2026-01-01", { cms_retires_on: "2027-01-05" }),
      ],
    };
    const lines = renderAnswer("policy_versions", report, { today: "2026-06-01" });
    expect(lines[1]).not.toContain("retires");
    expect(lines[2]).toMatch(/; retires 2027-01-05 \(CMS future retire\)$/);
  });
});
