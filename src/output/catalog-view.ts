import type { Lob, Payer } from "../contract/index.js";
import { renderTable, type Column } from "./table.js";
import type { Io } from "./terminal.js";

/** The `payers` table: id and display name. */
export function renderPayerTable(items: Payer[], io: Pick<Io, "columns" | "chalk">): string {
  const columns: Column<Payer>[] = [
    { header: "PAYER ID", value: (p) => p.payer_id },
    { header: "NAME", value: (p) => p.display_name, flex: true, min: 20 },
  ];
  return renderTable(columns, items, io);
}

/** The `lobs` table: id, payer, category and state (`nationwide` when the LOB has none). */
export function renderLobTable(items: Lob[], io: Pick<Io, "columns" | "chalk">): string {
  const columns: Column<Lob>[] = [
    { header: "LOB ID", value: (l) => l.lob_id, flex: true, min: 16 },
    { header: "PAYER", value: (l) => l.payer_name, flex: true, min: 16 },
    { header: "CATEGORY", value: (l) => l.lob },
    {
      header: "STATE",
      value: (l) => l.state ?? "nationwide",
      style: (text, l) => (l.state ? text : io.chalk.dim(text)),
    },
  ];
  return renderTable(columns, items, io);
}
