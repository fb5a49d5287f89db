import type { Row } from "../import/mcd/csv.js";
import type { RevisionNote } from "../snapshot/cms-record-table.js";

const EXPLANATION_CHARS = 300;

/** A CMS date (`2025-10-25 00:00:00`, `10/25/2025`) as YYYY-MM-DD, else null. */
export function cmsDay(value: string): string | null {
  const v = value.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(v);
  if (iso) return iso[1]!;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(v);
  return us ? `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}` : null;
}

function plainText(html: string, max = EXPLANATION_CHARS): string {
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/gi, " ")
    .replace(/&amp;/gi, "&")
    .replace(/&lt;/gi, "<")
    .replace(/&gt;/gi, ">")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The newest entry of an NCD's revision history (`ncd_trkg.rev_hstry`): HTML paragraphs, newest
 * first, each `MM/YYYY - what changed ...`. Its month as `YYYY-MM` (CMS gives no day) and its
 * words; undefined when no entry has that form (some rows hold only a link).
 */
export function latestNcdRevision(html: string): { date: string; text: string } | undefined {
  for (const chunk of html.split(/<\/p>|<br\s*\/?>/i)) {
    const m = /^(\d{1,2})\/(\d{4})\s*-\s*(.+)$/s.exec(plainText(chunk, Infinity));
    if (m) return { date: `${m[2]}-${m[1]!.padStart(2, "0")}`, text: plainText(m[3]!) };
  }
  return undefined;
}

/**
 * CMS's own records of its documents' revisions, read from the export beside the documents
 * (docs/data.md "CMS's revision records"): `reason_change_lookup` + `lcd_x_reason_change`
 * (why an LCD version changed), `lcd_x_revision_history` / `article_x_revision_history` (the
 * revision's date and explanation: the highest `rev_hist_num` of a version is its own), and
 * `lcd_future_retire` / `article_future_retire`, and the newest entry of each NCD's revision
 * history (`ncd_trkg.rev_hstry`, read in the import's own pass over `ncd_trkg`).
 */
export class CmsRecords {
  readonly #lookup = new Map<string, string>();
  readonly #reasons = new Map<string, Array<[string, string]>>();
  readonly #history = new Map<string, { num: number; date: string | null; text: string }>();
  readonly #retire = new Map<string, string>();
  readonly #ncd = new Map<string, { date: string; text: string }>();

  /** The importer's readers, by table (importMcd's `alsoRead`); lookup first. */
  readers(): Record<string, (row: Row) => void> {
    const key = (kind: "L" | "A", id: string, version: string) =>
      `${kind === "L" ? "cms-lcd/L" : "cms-article/A"}${id.trim()}|${version.trim()}`;
    const history = (kind: "L" | "A", idColumn: string, versionColumn: string) => (row: Row) => {
      const k = key(kind, row.get(idColumn), row.get(versionColumn));
      const num = Number(row.get("rev_hist_num"));
      const had = this.#history.get(k);
      if (had && had.num >= num) return;
      this.#history.set(k, {
        num,
        date: cmsDay(row.get("rev_hist_date")),
        text: plainText(row.get("rev_hist_exp")),
      });
    };
    return {
      "reason_change_lookup.csv": (row) =>
        this.#lookup.set(
          `${row.get("reason_change_id").trim()}|${row.get("reason_change_version").trim()}`,
          row.get("description").trim(),
        ),
      "lcd_x_reason_change.csv": (row) => {
        const k = key("L", row.get("lcd_id"), row.get("lcd_version"));
        const list = this.#reasons.get(k) ?? [];
        list.push([
          `${row.get("reason_change_id").trim()}|${row.get("reason_change_version").trim()}`,
          row.get("reason_change_other").trim(),
        ]);
        this.#reasons.set(k, list);
      },
      "lcd_x_revision_history.csv": history("L", "lcd_id", "lcd_version"),
      "article_x_revision_history.csv": history("A", "article_id", "article_version"),
      "ncd_trkg.csv": (row) => {
        const section = row.get("ncd_mnl_sect").trim();
        const version = row.get("ncd_vrsn_num").trim();
        const latest =
          section && !section.includes("/") && version
            ? latestNcdRevision(row.get("rev_hstry"))
            : undefined;
        if (latest) this.#ncd.set(`cms-ncd/${section}|${version}`, latest);
      },
      "lcd_future_retire.csv": (row) => this.#retireOn(`cms-lcd/L${row.get("lcd_id").trim()}`, row),
      "article_future_retire.csv": (row) =>
        this.#retireOn(`cms-article/A${row.get("article_id").trim()}`, row),
    };
  }

  #retireOn(series: string, row: Row): void {
    const day = cmsDay(row.get("retire_dt"));
    if (day) this.#retire.set(series, day);
  }

  /** A note per version CMS gave a reason or a revision history for. */
  notes(): RevisionNote[] {
    const out: RevisionNote[] = [];
    for (const [k, { date, text }] of this.#ncd) {
      const [series = "", cms_version = ""] = k.split("|");
      out.push({ series, cms_version, revision_date: date, reason: null, explanation: text });
    }
    for (const k of new Set([...this.#reasons.keys(), ...this.#history.keys()])) {
      const [series = "", cms_version = ""] = k.split("|");
      const reasons = [
        ...new Set(
          (this.#reasons.get(k) ?? []).flatMap(([id, other]) => {
            // "Other" with CMS's words beside it: `Other: CMS Final Rule CMS-1780-F`.
            const label = this.#lookup.get(id) ?? "";
            const text = other ? (label ? `${label}: ${other}` : other) : label;
            return text ? [text] : [];
          }),
        ),
      ];
      const h = this.#history.get(k);
      out.push({
        series,
        cms_version,
        revision_date: h?.date ?? null,
        reason: reasons.length ? reasons.join("; ") : null,
        explanation: h?.text || null,
      });
    }
    return out;
  }

  /** The documents CMS says will retire, and when. */
  futureRetire(): Array<{ series: string; retire_on: string }> {
    return [...this.#retire].map(([series, retire_on]) => ({ series, retire_on }));
  }
}
