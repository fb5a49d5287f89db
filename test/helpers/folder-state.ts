import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Every file under `dir`: name, size and modification time (what "as it was" means). */
export function folderState(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const info = statSync(file);
    if (info.isDirectory()) out.push(...folderState(file).map((f) => `${name}/${f}`));
    else out.push(`${name} ${info.size} ${info.mtimeMs}`);
  }
  return out;
}
