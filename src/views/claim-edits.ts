// Medicare's edits as rules of `coverage check`, beside the coverage verdicts (cli.md, "Medicare's
// edits, fees and prior authorization"): NCCI PTP bundling, MUE units, prior authorization. Pure
// functions over a claim's lines and a MedicareRuleSource; by date of service.
import {
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
  return [ptpRule(source, scope), mueRule(source, scope), priorAuthRule(source)];
}
