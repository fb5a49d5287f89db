import { mkdirSync } from "node:fs";
import { safeParseBounded } from "../contract/validation.js";
import { UsageError } from "../errors.js";
import { ConfigFile, type ConfigKey, type Profile } from "./keys.js";
import { resolveConfigDir, resolveConfigFile } from "./paths.js";

/** The config file as `coverage config` edits it: `{profiles: {NAME: {KEY: VALUE}}}`, mode 0600. */
export interface ConfigStore {
  readonly file: string;
  profile(name: string): Profile;
  set(name: string, key: ConfigKey, value: string | number): void;
  /** Removes a key; false when it was not set. */
  unset(name: string, key: ConfigKey): boolean;
}

type Profiles = Record<string, Profile>;

function problem(file: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  if (err instanceof SyntaxError)
    return new UsageError(`config file ${file} is not valid JSON`, "Fix or delete it.");
  return new UsageError(
    `cannot use config file ${file}${code ? ` (${code})` : ""}`,
    "Check its permissions, or point COVERAGE_CONFIG_DIR at a folder you own.",
  );
}

/**
 * Opens the config file with `conf` (atomic writes, mode 0600) in the folder read.ts reads.
 * Dot-notation is off: profile names and keys are plain keys, whatever they contain.
 */
export async function openConfigStore(env: NodeJS.ProcessEnv): Promise<ConfigStore> {
  const file = resolveConfigFile(env);
  const { default: Conf } = await import("conf");
  let conf: InstanceType<typeof Conf<{ profiles?: Profiles }>>;
  try {
    // Private folder first (conf would create it world-readable under the usual umask).
    mkdirSync(resolveConfigDir(env), { recursive: true, mode: 0o700 });
    conf = new Conf<{ profiles?: Profiles }>({
      cwd: resolveConfigDir(env),
      configName: "config",
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (err) {
    throw problem(file, err);
  }
  const read = (): Profiles => {
    const parsed = safeParseBounded(ConfigFile, conf.store);
    if (!parsed.success)
      throw new UsageError(
        `config file ${file} has an unexpected shape`,
        "Fix or delete it, then use `coverage config set`.",
      );
    return { ...parsed.data.profiles };
  };
  const write = (profiles: Profiles) => {
    try {
      conf.set("profiles", profiles);
    } catch (err) {
      throw problem(file, err);
    }
  };
  return {
    file,
    profile: (name) => read()[name] ?? {},
    set(name, key, value) {
      const profiles = read();
      write({ ...profiles, [name]: { ...profiles[name], [key]: value } });
    },
    unset(name, key) {
      const profiles = read();
      const current = profiles[name];
      if (!current || !(key in current)) return false;
      const { [key]: _removed, ...rest } = current;
      const next = { ...profiles };
      if (Object.keys(rest).length) next[name] = rest;
      else delete next[name];
      write(next);
      return true;
    },
  };
}
