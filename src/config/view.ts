import type { Profile } from "./keys.js";
import { CONFIG_KEYS } from "./keys.js";
import { displayValue } from "./values.js";
import { renderTable, type Column } from "../output/table.js";
import type { Io } from "../output/terminal.js";

/** A profile's stored values, masked, in the documented key order. */
export function maskProfile(profile: Profile): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const key of CONFIG_KEYS) {
    const value = profile[key];
    if (value !== undefined) out[key] = key === "api-key" ? displayValue(key, value) : value;
  }
  return out;
}

/** `config list` as a table: key and (masked) value. */
export function renderConfigTable(
  values: Record<string, string | number>,
  io: Pick<Io, "columns" | "chalk">,
): string {
  const columns: Column<[string, string | number]>[] = [
    { header: "KEY", value: ([k]) => k },
    { header: "VALUE", value: ([, v]) => String(v), flex: true, min: 20 },
  ];
  return renderTable(columns, Object.entries(values), io);
}
