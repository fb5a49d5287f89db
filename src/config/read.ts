import { readFileSync } from "node:fs";
import { safeParseBounded } from "../contract/validation.js";
import { UsageError } from "../errors.js";
import { ConfigFile, type Profile } from "./keys.js";
import { resolveConfigFile } from "./paths.js";
import { checkProfileName } from "./values.js";

/**
 * Reads one profile without loading `conf` (kept off the start-up path of every command);
 * a missing file is an empty default profile, and a profile named but missing is an error.
 */
export function readProfile(name: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const file = resolveConfigFile(env);
  checkProfileName(name);
  // A named profile must exist: a typo would otherwise answer from the sample data.
  const missing = () =>
    new UsageError(
      `profile '${name}' is not in ${file}`,
      `Create it with \`coverage --profile ${name} config set api-url URL\`, or drop --profile / COVERAGE_PROFILE to use the default profile.`,
    );
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    if (name !== "default") throw missing();
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
  // Through the build-time parser: every command reads the profile (src/contract/fast-parse.ts).
  const result = safeParseBounded(ConfigFile, parsed);
  if (!result.success) {
    throw new UsageError(
      `config file ${file} has an unexpected shape`,
      "Fix or delete it, then use `coverage config set`.",
    );
  }
  const profiles = result.data.profiles ?? {};
  // Own properties only: `toString` or `constructor` must not pass for profiles.
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (profile === undefined && name !== "default") throw missing();
  return profile ?? {};
}
