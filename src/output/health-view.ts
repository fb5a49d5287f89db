import { renderTable, type Column } from "./table.js";
import type { Io } from "./terminal.js";

/** One check's answer; `status` null and `error` when the request got no answer. */
export interface CheckAnswer {
  status: number | null;
  body: unknown;
  error?: string;
}

/** What `coverage health` reports: `/health`, `/ready`, and the key when one is set. */
export interface HealthReport {
  health: CheckAnswer;
  ready: CheckAnswer;
  /** `GET /v1/payers?limit=1` with the key (HTTP backend with a key only). */
  key?: CheckAnswer;
}

/** One row per check, for ndjson and csv. */
export function buildHealthRows(report: HealthReport): Array<Record<string, unknown>> {
  return (["health", "ready", "key"] as const).flatMap((name) => {
    const answer = report[name];
    return answer ? [{ name, ...answer }] : [];
  });
}

function bodyText(body: unknown): string {
  if (body === null || body === undefined) return "-";
  return typeof body === "string" ? body : JSON.stringify(body);
}

/** The health table: name, status code (green 200, red otherwise), body. */
export function renderHealthTable(report: HealthReport, io: Pick<Io, "columns" | "chalk">): string {
  const columns: Column<Record<string, unknown>>[] = [
    {
      header: "CHECK",
      value: (r) => (r.name === "key" ? "key (/v1/payers?limit=1)" : `/${String(r.name)}`),
    },
    {
      header: "STATUS",
      value: (r) => (r.status === null ? "no answer" : String(r.status)),
      style: (text) => (text === "200" ? io.chalk.green(text) : io.chalk.red(text)),
    },
    {
      header: "BODY",
      value: (r) => (typeof r.error === "string" ? r.error : bodyText(r.body)),
      flex: true,
      min: 20,
    },
  ];
  return renderTable(columns, buildHealthRows(report), io);
}
