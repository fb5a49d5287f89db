import type { Lob, Payer } from "../contract/index.js";
import { pickColumns, renderTable, type Column } from "./table.js";
import type { Io } from "./terminal.js";

/** The `payers` table: id and display name (or the `--fields` given). */
export function renderPayerTable(
  items: Payer[],
  io: Pick<Io, "columns" | "chalk">,
  fields: readonly string[] = ["payer_id", "display_name"],
): string {
  const known: Record<string, Column<Payer>> = {
    payer_id: { header: "PAYER ID", value: (p) => p.payer_id, nowrap: true },
    display_name: { header: "NAME", value: (p) => p.display_name, flex: true, min: 20 },
  };
  return renderTable(pickColumns(known, fields), items, io);
}

/**
 * The `lobs` table: id, payer, category and state (`nationwide` when the LOB has none), or the
 * `--fields` given.
 */
export function renderLobTable(
  items: Lob[],
  io: Pick<Io, "columns" | "chalk">,
  fields: readonly string[] = ["lob_id", "payer_name", "lob", "state"],
): string {
  const known: Record<string, Column<Lob>> = {
    lob_id: { header: "LOB ID", value: (l) => l.lob_id, nowrap: true },
    payer_id: { header: "PAYER ID", value: (l) => l.payer_id, nowrap: true },
    payer_name: { header: "PAYER", value: (l) => l.payer_name, flex: true, min: 16 },
    lob: { header: "CATEGORY", value: (l) => l.lob },
    state: {
      header: "STATE",
      value: (l) => l.state ?? "nationwide",
      style: (text, l) => (l.state ? text : io.chalk.dim(text)),
    },
  };
  return renderTable(pickColumns(known, fields), items, io);
}
