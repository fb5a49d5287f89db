// Medicare's edits as rules of `coverage check`, beside the coverage verdicts (cli.md, "Medicare's
// edits, fees and prior authorization"): NCCI PTP bundling, MUE units, add-on codes without
// their primary, prior authorization. Pure functions over a claim's lines and a
// MedicareRuleSource; by date of service.
import {
  addOnEditApplies,
  BYPASS_MODIFIERS,
  priorAuthApplies,
  ptpEditApplies,
  type MedicareRuleSource,
  type MueEntry,
  type PtpEdit,
} from "../domain/medicare-edits.js";
import type { CheckResult } from "./claim-check.js";
import type { ClaimRule } from "./claim-rules.js";

/** The setting and program a claim is checked under (a practitioner's Medicare claim). */
export interface EditScope {
  setting: string;
  program: "medicare" | "medicaid";
}

const DEFAULT_SCOPE: EditScope = { setting: "practitioner", program: "medicare" };

type Line = { code: string; units: number; modifiers: string[]; date: string; state?: string };

function linesOf(claim: Parameters<ClaimRule>[0]): Line[] {
  return claim.lines.map((l) => ({
    code: l.parsed.procedure.code,
    units: l.parsed.units,
    modifiers: l.parsed.modifiers,
    date: l.parsed.date,
    ...(l.parsed.state !== undefined && { state: l.parsed.state }),
  }));
}

const row = (verdict: CheckResult["verdict"], rule: string): CheckResult => ({
  payer_id: "CMS",
  lob: null,
  verdict,
  policies: [],
  rule,
});

/**
 * PTP: a pair billed on the claim the same day is `bundled (NCCI with C1)` on its column 2 line,
 * unless the edit's modifier indicator is 1 and that line carries a bypass modifier.
 */
export function ptpRule(source: MedicareRuleSource, scope: EditScope = DEFAULT_SCOPE): ClaimRule {
  return (claim) => {
    const lines = linesOf(claim);
    const out: CheckResult[][] = lines.map(() => []);
    if (lines.length < 2) return out;
    const edits = source
      .ptpEditsAmong(lines.map((l) => l.code))
      .filter((e) => e.setting === scope.setting && e.program === scope.program);
    if (!edits.length) return out;
    const byPair = new Map<string, PtpEdit[]>();
    for (const e of edits) {
      const key = `${e.column1} ${e.column2}`;
      byPair.set(key, [...(byPair.get(key) ?? []), e]);
    }
    lines.forEach((two, j) => {
      const named = new Set<string>();
      lines.forEach((one, i) => {
        if (i === j || one.date !== two.date || named.has(one.code)) return;
        const edit = byPair
          .get(`${one.code} ${two.code}`)
          ?.find((e) => ptpEditApplies(e, two.date));
        if (!edit) return;
        if (edit.modifier_indicator === 1 && two.modifiers.some((m) => BYPASS_MODIFIERS.has(m)))
          return;
        named.add(one.code);
        out[j]?.push(
          row(
            `bundled (NCCI with ${one.code})`,
            `NCCI PTP ${edit.setting} ${edit.release}: ${edit.column1} > ${edit.column2}, modifier indicator ${edit.modifier_indicator}, ${edit.effective} to ${edit.deletion ?? "-"}`,
          ),
        );
      });
    });
    return out;
  };
}

/**
 * MUE: units over the MUE are `units over MUE (N > M)`: MAI 1 (and a Medicaid table's, which has
 * none) per line; MAI 2 and 3 per day, the units of the claim's lines of that code and date
 * summed, on each of those lines.
 */
export function mueRule(source: MedicareRuleSource, scope: EditScope = DEFAULT_SCOPE): ClaimRule {
  const cache = new Map<string, MueEntry | undefined>();
  const mueOf = (code: string) => {
    if (!cache.has(code))
      cache.set(
        code,
        source.mue(code).find((m) => m.setting === scope.setting && m.program === scope.program),
      );
    return cache.get(code);
  };
  return (claim) => {
    const lines = linesOf(claim);
    return lines.map((l) => {
      const mue = mueOf(l.code);
      if (!mue) return [];
      const perDay = mue.mai === 2 || mue.mai === 3;
      const units = perDay
        ? lines
            .filter((o) => o.code === l.code && o.date === l.date)
            .reduce((sum, o) => sum + o.units, 0)
        : l.units;
      if (units <= mue.value) return [];
      return [
        row(
          `units over MUE (${units} > ${mue.value})`,
          `NCCI MUE ${mue.setting} ${mue.release}: MAI ${mue.mai ?? "-"}${perDay ? ", units of the day" : ", units of the line"}`,
        ),
      ];
    });
  };
}

const listed = (codes: string[], max = 6) =>
  codes.length > max
    ? `${codes.slice(0, max).join(", ")} and ${codes.length - max} more`
    : codes.join(", ");

/**
 * Add-on codes (NCCI AOC): an add-on line without its primary on the claim that day is
 * `add-on without primary (NCCI AOC type N)`. Type 1: none of the primaries CMS lists is billed
 * that day. Types 2 and 3 (the contractor defines primaries, or may add to CMS's): only when no
 * other code is billed that day, since then no primary can be there.
 */
export function aocRule(source: MedicareRuleSource, scope: EditScope = DEFAULT_SCOPE): ClaimRule {
  return (claim) => {
    const lines = linesOf(claim);
    const edits = source
      .addOnEditsFor(lines.map((l) => l.code))
      .filter((e) => e.program === scope.program);
    if (!edits.length) return lines.map(() => []);
    return lines.map((l) => {
      const mine = edits.filter((e) => e.add_on === l.code && addOnEditApplies(e, l.date));
      if (!mine.length) return [];
      const others = new Set(
        lines.filter((o) => o.date === l.date && o.code !== l.code).map((o) => o.code),
      );
      const typeOne = mine.filter((e) => e.type === 1);
      const primaries = [...new Set(typeOne.map((e) => e.primary ?? ""))].filter(Boolean).sort();
      const first = typeOne[0] ?? (mine[0] as (typeof mine)[number]);
      if (typeOne.length ? primaries.some((p) => others.has(p)) : others.size > 0) return [];
      const needs = typeOne.length
        ? `needs one of ${listed(primaries)} on the same date`
        : `the contractor's primaries; no other code on the same date`;
      return [
        row(
          `add-on without primary (NCCI AOC type ${first.type})`,
          `NCCI AOC ${first.program} ${first.release}: ${l.code} type ${first.type}, ${needs}`,
        ),
      ];
    });
  };
}

/** Prior authorization: a code on a list for the line's state and date. */
export function priorAuthRule(source: MedicareRuleSource): ClaimRule {
  const lists = new Map<string, ReturnType<MedicareRuleSource["priorAuth"]>>();
  const listsOf = (code: string) => {
    let found = lists.get(code);
    if (!found) lists.set(code, (found = source.priorAuth(code)));
    return found;
  };
  return (claim) =>
    linesOf(claim).map((l) =>
      listsOf(l.code)
        .filter((p) => priorAuthApplies(p, l.state, l.date))
        .map((p) =>
          row(
            `prior authorization required (${p.program})`,
            `${p.program} ${p.release}: ${p.category}; ${p.states.length ? p.states.join(", ") : "nationwide"}; from ${p.from}${p.to ? ` to ${p.to}` : ""}`,
          ),
        ),
    );
}

/** The edit rules of a snapshot that holds Medicare's rules, in the order of their rows. */
export function medicareRules(source: MedicareRuleSource, scope?: EditScope): ClaimRule[] {
  return [
    ptpRule(source, scope),
    mueRule(source, scope),
    aocRule(source, scope),
    priorAuthRule(source),
  ];
}
