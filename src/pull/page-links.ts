/** Which code file a page is searched for. */
export type CodeFileKind = "icd10cm" | "hcpcs";

const MONTHS = [
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "oct",
  "nov",
  "dec",
] as const;

/**
 * The zips CMS publishes, by their (irregular) names: the ICD-10-CM code descriptions in
 * tabular order (`2026-code-descriptions-tabular-order.zip`,
 * `april-1-2026-code-descriptions-tabular-order.zip`) and the HCPCS alpha-numeric file
 * (`january-2026-alpha-numeric-hcpcs-file.zip`, `2026-alpha-numeric-hcpcs-file-v2.zip`).
 */
const PATTERNS: Record<CodeFileKind, RegExp> = {
  icd10cm: /code[-_ ]?descriptions.*tabular|tabular[-_ ]?order|icd10cm[-_]order/,
  hcpcs: /alpha[-_ ]?numeric|anweb/,
};

/**
 * When a name gives a year but no month, the month its file takes effect: the ICD-10-CM
 * code set of year Y starts on October 1 of Y-1 (fiscal year), HCPCS's yearly file in January.
 */
const YEAR_ONLY: Record<CodeFileKind, { yearOffset: number; month: number }> = {
  icd10cm: { yearOffset: -1, month: 10 },
  hcpcs: { yearOffset: 0, month: 1 },
};

/** `&amp;` and the other entities an href may hold. */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Every link of an HTML page, as absolute URLs (relative ones resolved against `base`). */
export function pageLinks(html: string, base: string): string[] {
  const links: string[] = [];
  for (const m of html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi)) {
    const raw = decodeEntities((m[1] ?? m[2] ?? m[3] ?? "").trim());
    try {
      links.push(new URL(raw, base).href);
    } catch {
      // Not a URL (a template placeholder): not a link to follow.
    }
  }
  return links;
}

/** The month a file name says it takes effect, as year * 12 + month, or -1 when it says none. */
export function fileDate(name: string, kind: CodeFileKind): number {
  const years = [...name.matchAll(/(?:^|[^0-9])(20\d\d)(?![0-9])/g)].map((m) => Number(m[1]));
  if (!years.length) return -1;
  const year = Math.max(...years);
  const month = MONTHS.findIndex((m) => new RegExp(`(^|[^a-z])${m}[a-z]*([^a-z]|$)`).test(name));
  if (month >= 0) return year * 12 + month + 1;
  const { yearOffset, month: start } = YEAR_ONLY[kind];
  return (year + yearOffset) * 12 + start;
}

/**
 * The newest zip of the kind a page links to: by the date its name says (a name without one
 * counts as oldest), the first on the page when two say the same (CMS lists the newest first).
 */
export function findCodeFileLink(
  html: string,
  base: string,
  kind: CodeFileKind,
): string | undefined {
  let best: { url: string; date: number } | undefined;
  for (const url of pageLinks(html, base)) {
    const { pathname } = new URL(url);
    let name: string;
    try {
      name = decodeURIComponent(pathname.slice(pathname.lastIndexOf("/") + 1)).toLowerCase();
    } catch {
      continue;
    }
    if (!name.endsWith(".zip") || !PATTERNS[kind].test(name)) continue;
    // ICD-10-PCS and the ICD-10-CM/PCS crosswalks share words with the files we want.
    if (kind === "icd10cm" && /pcs|gem|conversion|addend/.test(name)) continue;
    const date = fileDate(name, kind);
    if (!best || date > best.date) best = { url, date };
  }
  return best?.url;
}

/** Whether a `--icd10cm-url` / `--hcpcs-url` names the zip itself rather than a page. */
export function isZipUrl(url: string): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith(".zip");
  } catch {
    return false;
  }
}
