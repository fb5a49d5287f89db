import { readFileSync } from "node:fs";
import { UsageError } from "../errors.js";
import { ConfigFile, type Profile } from "./keys.js";
import { configFile } from "./paths.js";

/**
 * Reads one profile without loading `conf` (kept off the start-up path of every command);
 * a missing file is an empty profile.
 */
export function readProfile(name: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const file = configFile(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(
      `config file ${file} is not valid JSON`,
      "Fix or delete it; `coverage config path` shows where it is.",
    );
  }
  const result = ConfigFile.safeParse(parsed);
  if (!result.success) {
    throw new UsageError(
      `config file ${file} has an unexpected shape`,
      "Fix or delete it, then use `coverage config set`.",
    );
  }
  return result.data.profiles?.[name] ?? {};
}
