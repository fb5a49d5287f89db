import type { CodeDossier } from "../views/code-dossier.js";
import { wrapText } from "./table.js";
import { stripControls, type Io } from "./terminal.js";

type ViewIo = Pick<Io, "columns" | "chalk">;

const money = (n: number | null) => (n === null ? "NA" : `$${n.toFixed(2)}`);
const period = (from: string, to: string | null) =>
  to === null ? `since ${from}` : `${from} to ${to}`;

/** `coverage code`'s Medicare section: MUE, PTP edits, fees, DMEPOS, prior authorization. */
export function renderCodeDossier(d: CodeDossier, io: ViewIo): string {
  const b = (s: string) => io.chalk.bold(s);
  const dim = (s: string) => io.chalk.dim(s);
  const out = [b(`Medicare edits and fees on ${d.date}${d.state ? ` in ${d.state}` : ""}`)];
  out.push(`  ${b("MUE")}`);
  if (!d.mue.length) out.push(`    ${dim("none in the snapshot")}`);
  for (const m of d.mue)
    out.push(
      `    ${m.setting}${m.program === "medicaid" ? " (Medicaid)" : ""}: ${m.value} unit${m.value === 1 ? "" : "s"}, MAI ${m.mai ?? "-"} (${m.mai_meaning}); ${stripControls(m.rationale)} ${dim(`(MUE ${m.release})`)}`,
    );
  out.push(
    `  ${b("PTP edits")}: ${d.ptp.count} in force (column 1 in ${d.ptp.as_column_1}, column 2 in ${d.ptp.as_column_2})${d.ptp.edits ? "" : dim("  --edits lists them")}`,
  );
  for (const e of d.ptp.edits ?? [])
    out.push(
      `    ${e.code_is === "column 1" ? `${d.code} > ${e.partner}` : `${e.partner} > ${d.code}`}: ${e.setting}, modifier indicator ${e.modifier_indicator}, ${period(e.effective, e.deletion)}; ${stripControls(e.rationale)} ${dim(`(${e.release})`)}`,
    );
  if (d.add_on) {
    out.push(`  ${b("Add-on code edits")}`);
    const medicaid = (program: string) => (program === "medicaid" ? " (Medicaid)" : "");
    for (const a of d.add_on.as_add_on)
      out.push(
        `    add-on code, type ${a.type}${medicaid(a.program)} (${a.type_meaning})${a.primaries.length ? `; primaries: ${a.primaries.join(", ")}` : ""} ${dim(`(AOC ${a.release})`)}`,
      );
    if (d.add_on.as_primary.length)
      out.push(
        `    primary code of ${d.add_on.as_primary.map((p) => `${p.add_on} (type ${p.type}${medicaid(p.program)})`).join(", ")} ${dim(`(AOC ${[...new Set(d.add_on.as_primary.map((p) => p.release))].join(", ")})`)}`,
      );
    if (!d.add_on.as_add_on.length && !d.add_on.as_primary.length)
      out.push(`    ${dim("neither an add-on code nor a listed primary on this day")}`);
  }
  out.push(`  ${b("Physician fee schedule")}`);
  if (!d.fees.length) out.push(`    ${dim("not in the snapshot's PFS file")}`);
  for (const f of d.fees) {
    const mod = f.modifier ? `-${f.modifier}` : "";
    out.push(
      `    ${d.code}${mod}: status ${f.status}, global ${f.global_days}, PC/TC ${f.pctc}; national ${money(f.national.non_facility)} non-facility, ${money(f.national.facility)} facility (CF ${f.conversion_factor}) ${dim(`(${f.release})`)}`,
    );
    if (f.locality)
      out.push(
        `      ${f.locality.state}-${f.locality.locality} ${stripControls(f.locality.name)}: ${money(f.locality.non_facility)} non-facility, ${money(f.locality.facility)} facility ${dim(`(${f.locality.gpci_release})`)}`,
      );
  }
  if (d.dmepos.length) {
    out.push(`  ${b("DMEPOS fee schedule")}`);
    for (const f of d.dmepos)
      out.push(
        `    ${d.code}${[f.modifier, f.modifier2]
          .filter(Boolean)
          .map((m) => `-${m}`)
          .join(
            "",
          )} ${f.state}: ${money(f.non_rural)} non-rural, ${money(f.rural)} rural ${dim(`(${f.release})`)}`,
      );
  }
  out.push(`  ${b("Prior authorization")}`);
  if (!d.prior_authorization.length)
    out.push(`    ${dim("on no list in the snapshot for this day and state")}`);
  for (const p of d.prior_authorization)
    out.push(
      `    ${p.program}: ${stripControls(p.category)}; ${p.states.length ? p.states.join(", ") : "nationwide"}; ${period(p.from, p.to)} ${dim(`(${p.source})`)}`,
    );
  for (const n of d.notes) out.push(dim(`  note: ${n}`));
  // Which PTP parts are loaded, per table: an edit of a part not loaded is not counted above.
  const parts = new Map<string, number[]>();
  for (const r of d.releases.filter((r) => r.kind === "ptp")) {
    const key = `${r.setting}${r.program === "medicaid" ? " (Medicaid)" : ""} ${r.release}`;
    parts.set(key, [...(parts.get(key) ?? []), r.part]);
  }
  if (parts.size)
    out.push(
      dim(
        `  PTP parts loaded: ${[...parts]
          .map(
            ([k, p]) =>
              `${k} ${p
                .sort((a, b) => a - b)
                .map((n) => `f${n}`)
                .join(", ")}`,
          )
          .join("; ")}`,
      ),
    );
  // Each line wrapped to the terminal under its own indent, continued two columns further in.
  return out
    .flatMap((line) => {
      const indent = /^ */.exec(line)?.[0] ?? "";
      return wrapText(line.slice(indent.length), Math.max(20, io.columns - indent.length), 2)
        .split("\n")
        .map((l) => indent + l);
    })
    .join("\n");
}
