import type { RuleRow } from "../../snapshot/medicare-writer.js";
import type { Layout } from "./layouts.js";

const CODE = /^[A-Z0-9]{5}$/;
const YMD = /^\d{8}$/;
const ISO = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An AOC date: CMS writes them Julian, YYYYDDD (2026091 = 2026-04-01); YYYYMMDD and ISO are
 * read too. Empty or `*` is none (null); anything else is not a date (undefined).
 */
export function aocDate(s: string): string | null | undefined {
  if (s === "" || s === "*") return null;
  if (ISO.test(s)) return s;
  if (YMD.test(s)) return ymd(s);
  const julian = /^(\d{4})(\d{3})$/.exec(s);
  if (!julian) return undefined;
  const day = Number(julian[2]);
  const year = Number(julian[1]);
  const d = new Date(Date.UTC(year, 0, day));
  if (day < 1 || d.getUTCFullYear() !== year) return undefined;
  return d.toISOString().slice(0, 10);
}

/** A code as Excel may hold it: a number that lost its leading zeros (01953 as 1953). */
const aocCode = (s: string) => (/^\d{1,4}$/.test(s) ? s.padStart(5, "0") : s.toUpperCase());

const ymd = (s: string) => `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
const cell = (r: string[], at: number | undefined) =>
  at === undefined ? "" : (r[at] ?? "").trim();
const num = (s: string): number | null => {
  if (s === "") return null;
  const n = Number(s.replaceAll(",", "").replace(/^\$/, ""));
  return Number.isFinite(n) ? n : null;
};

/**
 * One data record of a file as the writer's row; null for a record that is not one (a title,
 * a wrapped header line, a footnote, a blank line). A description column is never read.
 */
export function toRuleRow(r: string[], layout: Layout): RuleRow | null {
  const c = layout.columns;
  switch (layout.kind) {
    case "ptp": {
      const c1 = cell(r, 0).toUpperCase();
      const c2 = cell(r, 1).toUpperCase();
      const eff = cell(r, 3);
      const del = cell(r, 4);
      const mod = cell(r, 5);
      if (!CODE.test(c1) || !CODE.test(c2) || !YMD.test(eff) || !/^[019]$/.test(mod)) return null;
      if (del !== "*" && del !== "" && !YMD.test(del)) return null;
      return {
        kind: "ptp",
        c1,
        c2,
        pre: cell(r, 2) === "*",
        eff: ymd(eff),
        del: YMD.test(del) ? ymd(del) : null,
        mod: Number(mod),
        why: cell(r, 6),
      };
    }
    case "mue": {
      const code = cell(r, c.code).toUpperCase();
      const value = num(cell(r, c.value));
      if (!CODE.test(code) || value === null || !Number.isInteger(value)) return null;
      const mai = c.mai === undefined ? null : Number(/^[123]/.exec(cell(r, c.mai))?.[0] ?? NaN);
      if (mai !== null && Number.isNaN(mai)) return null;
      return { kind: "mue", code, value, mai, why: cell(r, c.rationale) };
    }
    case "aoc": {
      const addOn = aocCode(cell(r, c.addOn));
      const primaryCell = aocCode(cell(r, c.primary));
      const type = Number(cell(r, c.type));
      const dates = [c.eff, c.del, c.addOnDel, c.primaryDel].map((at) => aocDate(cell(r, at)));
      const [eff, del, addOnDel, primaryDel] = dates;
      if (!CODE.test(addOn) || !CODE.test(primaryCell) || ![1, 2, 3].includes(type)) return null;
      if (!eff || dates.includes(undefined)) return null;
      return {
        kind: "aoc",
        addOn,
        // CCCCC: the contractor defines the primary codes (type 2).
        primary: primaryCell === "CCCCC" ? null : primaryCell,
        type,
        eff,
        del: del ?? null,
        addOnDel: addOnDel ?? null,
        primaryDel: primaryDel ?? null,
        notes: cell(r, c.notes),
      };
    }
    case "pfs": {
      const code = cell(r, c.code).toUpperCase();
      if (!CODE.test(code)) return null;
      const n = (k: string) => num(cell(r, c[k])) ?? 0;
      return {
        kind: "pfs",
        code,
        mod: cell(r, c.modifier).toUpperCase(),
        status: cell(r, c.status),
        global: cell(r, c.global),
        pctc: cell(r, c.pctc),
        work: n("work"),
        nfPe: n("nfPe"),
        nfNa: /^NA$/i.test(cell(r, c.nfNa)),
        fPe: n("fPe"),
        fNa: /^NA$/i.test(cell(r, c.fNa)),
        mp: n("mp"),
        nfTotal: n("nfTotal"),
        fTotal: n("fTotal"),
        cf: n("cf"),
      };
    }
    case "gpci": {
      const state = cell(r, c.state).toUpperCase();
      const locality = cell(r, c.locality);
      const work = num(cell(r, c.work));
      const pe = num(cell(r, c.pe));
      const mp = num(cell(r, c.mp));
      if (!/^[A-Z]{2}$/.test(state) || !/^\d+$/.test(locality)) return null;
      if (work === null || pe === null || mp === null) return null;
      return {
        kind: "gpci",
        mac: cell(r, c.mac),
        state,
        locality: locality.padStart(2, "0"),
        name: cell(r, c.name),
        work,
        pe,
        mp,
      };
    }
    case "dmepos":
      return null; // One record is a row per state: see toDmeposRows.
    case "pa": {
      const code = cell(r, c.code).toUpperCase();
      const from = cell(r, c.from);
      const to = cell(r, c.to);
      if (!CODE.test(code) || !ISO.test(from) || (to !== "" && !ISO.test(to))) return null;
      const states = cell(r, c.states)
        .split(/[;,\s]+/)
        .filter(Boolean)
        .map((s) => s.toUpperCase());
      if (states.some((s) => !/^[A-Z]{2}$/.test(s))) return null;
      return {
        kind: "pa",
        code,
        program: cell(r, c.program),
        category: cell(r, c.category),
        states: states.join(";"),
        from,
        to: to === "" ? null : to,
        source: cell(r, c.source),
      };
    }
  }
}

/** A DMEPOS fee schedule record as one row per state that has a fee (non-rural or rural). */
export function toDmeposRows(r: string[], layout: Layout): RuleRow[] | null {
  const c = layout.columns;
  const code = cell(r, c.HCPCS).toUpperCase();
  if (!CODE.test(code)) return null;
  const rows: RuleRow[] = [];
  for (const key of Object.keys(c)) {
    if (!key.endsWith(":NR")) continue;
    const state = key.slice(0, 2);
    const nr = num(cell(r, c[key]));
    const rural = num(cell(r, c[`${state}:R`]));
    if (nr === null && rural === null) continue;
    rows.push({
      kind: "dmepos",
      code,
      mod: cell(r, c.Mod).toUpperCase(),
      mod2: cell(r, c.Mod2).toUpperCase(),
      state,
      nr,
      r: rural,
      juris: cell(r, c.JURIS),
      catg: cell(r, c.CATG),
    });
  }
  return rows;
}
