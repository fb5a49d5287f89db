import { formatBytes } from "./bytes.js";
import type { SnapshotEntry } from "../snapshot/entry.js";
import { renderTable, type Column } from "./table.js";
import type { Io } from "./terminal.js";

/** `data list` as a table: name, as_of, size, when pulled, from where. */
export function renderSnapshotList(
  snapshots: SnapshotEntry[],
  io: Pick<Io, "columns" | "chalk">,
): string {
  const columns: Column<SnapshotEntry>[] = [
    { header: "NAME", value: (s) => s.name, nowrap: true },
    { header: "AS OF", value: (s) => s.as_of ?? "unknown" },
    { header: "SIZE", value: (s) => formatBytes(s.size_bytes) },
    { header: "PULLED", value: (s) => s.pulled_at.slice(0, 16).replace("T", " ") + " UTC" },
    { header: "SOURCE", value: (s) => s.source, flex: true, min: 20 },
  ];
  return renderTable(columns, snapshots, io);
}
