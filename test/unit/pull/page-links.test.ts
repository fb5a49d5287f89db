import { describe, expect, it } from "vitest";
import { fileDate, findCodeFileLink, isZipUrl, pageLinks } from "../../../src/pull/page-links.js";

const BASE = "https://www.cms.gov/medicare/coding-billing/icd-10-codes";
const page = (...hrefs: string[]) => hrefs.map((h) => `<a href="${h}">file</a>`).join("\n");

describe("the code-file links on CMS's pages", () => {
  it.each([
    // [kind, hrefs on the page, the one chosen]
    [
      "icd10cm",
      [
        "/files/zip/2026-code-descriptions-tabular-order.zip",
        "/files/zip/april-1-2026-code-descriptions-tabular-order.zip",
        "/files/zip/2025-code-descriptions-tabular-order.zip",
      ],
      "/files/zip/april-1-2026-code-descriptions-tabular-order.zip",
    ],
    [
      "icd10cm",
      [
        "/files/zip/2026-icd-10-pcs-order-file-long-and-abbreviated-titles.zip",
        "/files/zip/2026-conversion-table.zip",
        "/files/zip/2026-code-descriptions-tabular-order-updated-02012026.zip",
      ],
      "/files/zip/2026-code-descriptions-tabular-order-updated-02012026.zip",
    ],
    [
      "hcpcs",
      [
        "/files/zip/january-2026-alpha-numeric-hcpcs-file.zip",
        "/files/zip/april-2026-alpha-numeric-hcpcs-file.zip",
        "/files/zip/october-2025-alpha-numeric-hcpcs-file.zip",
        "/files/document/april-2026-hcpcs-notes.pdf",
      ],
      "/files/zip/april-2026-alpha-numeric-hcpcs-file.zip",
    ],
    [
      "hcpcs",
      ["/files/zip/2026-alpha-numeric-hcpcs-file.zip", "/files/zip/2025-anweb-v3.zip"],
      "/files/zip/2026-alpha-numeric-hcpcs-file.zip",
    ],
  ] as const)("%s: %j → %s", (kind, hrefs, chosen) => {
    expect(findCodeFileLink(page(...hrefs), BASE, kind)).toBe(new URL(chosen, BASE).href);
  });

  it("finds none on a page without such a link", () => {
    expect(findCodeFileLink(page("/files/zip/other.zip", "/a.pdf"), BASE, "hcpcs")).toBeUndefined();
    expect(findCodeFileLink("<html></html>", BASE, "icd10cm")).toBeUndefined();
  });

  it.each([
    ["april-1-2026-code-descriptions-tabular-order.zip", "icd10cm", 2026 * 12 + 4],
    // The ICD-10-CM code set of 2026 starts on October 1, 2025.
    ["2026-code-descriptions-tabular-order.zip", "icd10cm", 2025 * 12 + 10],
    ["2026-alpha-numeric-hcpcs-file.zip", "hcpcs", 2026 * 12 + 1],
    ["july-2026-alpha-numeric-hcpcs-file-v2.zip", "hcpcs", 2026 * 12 + 7],
    ["alpha-numeric-hcpcs-file.zip", "hcpcs", -1],
  ] as const)("the date of %s", (name, kind, date) => {
    expect(fileDate(name, kind)).toBe(date);
  });

  it("reads quoted, single-quoted and bare hrefs, entities decoded, relative ones resolved", () => {
    const html = `<a href="/a.zip?x=1&amp;y=2">a</a><a href='b.zip'>b</a><a href=https://x.test/c.zip>c</a>`;
    expect(pageLinks(html, BASE)).toEqual([
      "https://www.cms.gov/a.zip?x=1&y=2",
      "https://www.cms.gov/medicare/coding-billing/b.zip",
      "https://x.test/c.zip",
    ]);
  });

  it.each([
    ["https://www.cms.gov/files/zip/x.zip", true],
    ["https://www.cms.gov/files/zip/X.ZIP?download=1", true],
    ["https://www.cms.gov/medicare/coding-billing/icd-10-codes", false],
    ["not a url", false],
  ])("%s is a zip: %s", (url, zip) => {
    expect(isZipUrl(url)).toBe(zip);
  });
});
