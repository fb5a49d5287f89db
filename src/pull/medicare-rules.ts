// `data pull medicare --with edits,fees,pa`: Medicare's edits, fees and prior-authorization
// lists beside the catalogue. What CMS serves without a licence page (Medicaid's NCCI tables, the
// DMEPOS fee schedule) is fetched and imported;
// for a file behind the AMA's licence page (which only a person can accept) the pull says which
// page to open and which `data import` command takes the file. It never accepts a licence.
import { unlink } from "node:fs/promises";
import path from "node:path";
import type { CommandContext } from "../cli/context.js";
import { resolveDataDir } from "../dataset/data-dir.js";
import { UsageError } from "../errors.js";
import { importRules } from "../import/medicare/run.js";
import { shippedPriorAuthList } from "../import/medicare/targets.js";
import { fetchFile, fetchPage } from "./fetch.js";
import { pullFetchOptions } from "./fetch-options.js";
import { resolvePullLimits } from "./wire-limits.js";
import { isZipUrl, pageLinks } from "./page-links.js";

export const RULE_KINDS = ["edits", "fees", "pa"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** CMS's pages for the files (the AMA licence page stands before the PTP, MUE and RVU files). */
export const RULE_PAGES = {
  ptp: "https://www.cms.gov/medicare/coding-billing/national-correct-coding-initiative-ncci-edits/medicare-ncci-procedure-procedure-ptp-edits",
  mue: "https://www.cms.gov/medicare/coding-billing/national-correct-coding-initiative-ncci-edits/medicare-ncci-medically-unlikely-edits",
  pfs: "https://www.cms.gov/medicare/payment/fee-schedules/physician/pfs-relative-value-files",
  dmepos: "https://www.cms.gov/medicare/payment/fee-schedules/dmepos/dmepos-fee-schedule",
  aoc: "https://www.cms.gov/medicare/coding-billing/national-correct-coding-initiative-ncci-edits/medicare-ncci-add-code-edits",
  medicaidNcci:
    "https://www.cms.gov/medicare/coding-billing/ncci-medicaid/medicaid-ncci-edit-files",
};

/** `--with edits,fees,pa` read; anything else is exit 2 before anything is pulled. */
export function parseRuleKinds(value: string | undefined): RuleKind[] {
  if (value === undefined) return [];
  const kinds = value.split(",").map((v) => v.trim().toLowerCase());
  const bad = kinds.find((k) => !(RULE_KINDS as readonly string[]).includes(k));
  if (bad !== undefined || kinds.length === 0)
    throw new UsageError(
      `--with '${bad ?? value}' is not one of ${RULE_KINDS.join(", ")}`,
      "Give --with edits,fees (and pa for the prior-authorization lists shipped with coverage).",
    );
  return [...new Set(kinds as RuleKind[])];
}

/** The newest DMEPOS fee schedule zip a page links to (CMS lists the newest first). */
export function findDmeposLink(html: string, base: string): string | undefined {
  return pageLinks(html, base).find((url) => {
    const name = new URL(url).pathname.split("/").pop()?.toLowerCase() ?? "";
    return name.endsWith(".zip") && /dme/.test(name) && !/rural|zip-code|former|pen/.test(name);
  });
}

/** A Medicaid NCCI zip's quarter, as a sortable number (CMS writes `2026-q3` and `q2-2026`). */
function quarterOf(name: string): number | undefined {
  const m = /(\d{4})-?q([1-4])|q([1-4])-?(\d{4})/.exec(name);
  if (!m) return undefined;
  return Number(m[1] ?? m[4]) * 10 + Number(m[2] ?? m[3]);
}

/**
 * The Medicaid NCCI PTP, MUE (and add-on code) zips of the newest quarter a page links to, every setting
 * (practitioner, outpatient hospital, DME): `medicaid-ncci-2026-q3-ptp-edits-practitioner-services.zip`.
 */
export function findMedicaidNcciLinks(html: string, base: string): string[] {
  const zips = pageLinks(html, base)
    .map((url) => ({ url, name: new URL(url).pathname.split("/").pop()?.toLowerCase() ?? "" }))
    .filter(
      (z) =>
        z.name.endsWith(".zip") && /medicaid/.test(z.name) && /ptp|mue|aoc|add-on/.test(z.name),
    )
    .map((z) => ({ ...z, quarter: quarterOf(z.name) ?? 0 }));
  const newest = Math.max(0, ...zips.map((z) => z.quarter));
  return [...new Set(zips.filter((z) => z.quarter === newest).map((z) => z.url))];
}

/** The guidance for the files behind the licence page, one line each, to stderr. */
function licensed(kinds: RuleKind[]): string[] {
  const lines: string[] = [];
  if (kinds.includes("edits"))
    lines.push(
      `Medicare's NCCI PTP edits and MUE tables: CMS serves them behind the AMA's licence page, which only you can accept. Open ${RULE_PAGES.ptp} and ${RULE_PAGES.mue}, download the practitioner (ccipra-*) and hospital (ccioph-*) PTP zips and the MUE tables (and the add-on code edits from ${RULE_PAGES.aoc}), then: coverage data import edits FILES... --into medicare`,
    );
  if (kinds.includes("fees"))
    lines.push(
      `PFS relative value files: behind the same licence page. Open ${RULE_PAGES.pfs}, download the newest rvuNN zip (PPRRVU and GPCI files), then: coverage data import fees rvuNN.zip --into medicare`,
    );
  return lines;
}

/**
 * After the catalogue's pull: imports what needs no licence into the data folder's
 * medicare.db (the DMEPOS fee schedule, fetched from `dmeposUrl` or CMS's page; the shipped
 * prior-authorization lists) and says how to add the rest.
 */
export async function pullMedicareRules(
  kinds: RuleKind[],
  options: {
    dmeposUrl?: string | undefined;
    medicaidNcciUrl?: string | undefined;
    stallTimeout?: string | undefined;
    deadline?: string | undefined;
  },
  ctx: CommandContext,
): Promise<void> {
  if (!kinds.length) return;
  const say = (line: string) => {
    if (!ctx.settings.quiet) ctx.io.stderr.write(`${line}\n`);
  };
  const dir = await resolveDataDir(ctx.env);
  const target = path.join(dir, "medicare.db");
  const limits = resolvePullLimits(options, ctx.env);
  const fetchOptions = pullFetchOptions(ctx, ctx.signal, say, limits);
  const files: Array<{ group: "edits" | "fees" | "pa"; file: string; temp: boolean }> = [];
  // A name of its own beside the snapshot, ending as CMS's does (its name carries the release).
  const download = async (url: string, group: "edits" | "fees", what: string, fix: string) => {
    const file = path.join(dir, `medicare.pull-${path.basename(new URL(url).pathname)}`);
    files.push({ group, file, temp: true });
    await fetchFile(url, file, undefined, fetchOptions(what, fix));
  };
  try {
    if (kinds.includes("edits")) {
      const fix = "--medicaid-ncci-url URL (a Medicaid NCCI zip, or the page that links them)";
      const url = options.medicaidNcciUrl ?? RULE_PAGES.medicaidNcci;
      let links = [url];
      if (!isZipUrl(url)) {
        const html = await fetchPage(url, fetchOptions("the Medicaid NCCI edit files page", fix));
        links = findMedicaidNcciLinks(html, url);
        if (!links.length)
          throw new UsageError(
            `the Medicaid NCCI edit files page ${url} links no PTP or MUE zip`,
            `Give ${fix}.`,
          );
      }
      for (const link of links) await download(link, "edits", "a Medicaid NCCI file", fix);
    }
    if (kinds.includes("fees")) {
      const fix = "--dmepos-url URL (the DMEPOS fee schedule zip, or a page that links it)";
      let url = options.dmeposUrl ?? RULE_PAGES.dmepos;
      if (!isZipUrl(url)) {
        const html = await fetchPage(url, fetchOptions("the DMEPOS fee schedule page", fix));
        const link = findDmeposLink(html, url);
        if (!link)
          throw new UsageError(
            `the DMEPOS fee schedule page ${url} links no fee schedule zip`,
            `Give ${fix}.`,
          );
        url = link;
      }
      await download(url, "fees", "the DMEPOS fee schedule", fix);
    }
    if (kinds.includes("pa"))
      files.push({ group: "pa", file: shippedPriorAuthList(), temp: false });
    for (const f of files) {
      const done = await importRules(f.group, [f.file], target, {
        // The edits fetched are Medicaid's: Medicare's stand behind the licence page.
        ...(f.group === "edits" && { program: "medicaid" as const }),
        now: new Date(),
        signal: ctx.signal,
      });
      for (const d of done)
        say(
          `Imported ${d.kind.toUpperCase()}${d.program === "medicaid" ? " Medicaid" : ""}${d.setting ? ` ${d.setting}` : ""} ${d.release}: ${d.rows.toLocaleString("en-US")} rows into ${target}`,
        );
    }
  } finally {
    for (const f of files) if (f.temp) await unlink(f.file).catch(() => undefined);
  }
  for (const line of licensed(kinds)) say(line);
}
