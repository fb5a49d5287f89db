import { renderTable, type Column } from "./table.js";
import type { Io } from "./terminal.js";

/** One check's answer. */
export interface CheckAnswer {
  status: number;
  body: unknown;
}

/** What `coverage health` reports: `/health` and `/ready`. */
export interface HealthReport {
  health: CheckAnswer;
  ready: CheckAnswer;
}

/** One row per check, for ndjson and csv. */
export function buildHealthRows(report: HealthReport): Array<Record<string, unknown>> {
  return (["health", "ready"] as const).map((name) => ({ name, ...report[name] }));
}

function bodyText(body: unknown): string {
  if (body === null || body === undefined) return "-";
  return typeof body === "string" ? body : JSON.stringify(body);
}

/** The health table: name, status code (green 200, red otherwise), body. */
export function renderHealthTable(report: HealthReport, io: Pick<Io, "columns" | "chalk">): string {
  const columns: Column<Record<string, unknown>>[] = [
    { header: "CHECK", value: (r) => `/${String(r.name)}` },
    {
      header: "STATUS",
      value: (r) => String(r.status),
      style: (text) => (text === "200" ? io.chalk.green(text) : io.chalk.red(text)),
    },
    { header: "BODY", value: (r) => bodyText(r.body), flex: true, min: 20 },
  ];
  return renderTable(columns, buildHealthRows(report), io);
}
