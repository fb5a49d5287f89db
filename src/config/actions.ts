import type { OutputFormat } from "../cli/settings.js";
import { UsageError } from "../errors.js";
import { maskProfile, renderConfigTable } from "./view.js";
import { writeRecord } from "../output/record.js";
import type { Io } from "../output/terminal.js";
import { readSecret } from "./secret-input.js";
import { openConfigStore } from "./store.js";
import { checkApiKey, displayValue, parseConfigKey, parseConfigValue } from "./values.js";

/** What a `config` subcommand works with. */
export interface ConfigRun {
  io: Io;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  signal: AbortSignal;
  format: OutputFormat;
  profile: string;
  /** stderr, TTY only, not with --quiet. */
  notice: (message: string) => void;
  /** stderr, terminal or not, not with --quiet: a change made (a script's log shows it). */
  inform: (message: string) => void;
}

/** `config get KEY`: the stored value on stdout (api-key masked); nothing when unset. */
export async function getValue(c: ConfigRun, rawKey: string): Promise<void> {
  const key = parseConfigKey(rawKey);
  const value = (await openConfigStore(c.env)).profile(c.profile)[key];
  if (value === undefined) return c.notice(`${key} is not set in profile '${c.profile}'.`);
  const shown = key === "timeout" ? value : displayValue(key, value);
  c.io.stdout.write((c.format === "json" ? JSON.stringify(shown) : String(shown)) + "\n");
}

/** `config set KEY [VALUE]`: checks the value; the API key only from stdin or a hidden prompt. */
export async function setValue(c: ConfigRun, rawKey: string, rawValue?: string): Promise<void> {
  const key = parseConfigKey(rawKey);
  let value: string | number;
  if (key === "api-key") {
    if (rawValue !== undefined)
      throw new UsageError(
        "the API key is not taken from the command line (it would stay in shell history and process lists)",
        'Pipe it (printf %s "$KEY" | coverage config set api-key), or run `coverage config set api-key` in a terminal for a hidden prompt.',
      );
    value = checkApiKey(
      await readSecret({
        stdin: c.stdin,
        stderr: c.io.stderr,
        prompt: `API key for profile '${c.profile}' (input hidden): `,
        signal: c.signal,
      }),
    );
  } else {
    if (rawValue === undefined)
      throw new UsageError(
        `config set ${key} needs a VALUE`,
        `Example: coverage config set ${key} VALUE`,
      );
    value = parseConfigValue(key, rawValue);
  }
  const store = await openConfigStore(c.env);
  store.set(c.profile, key, value);
  // Said off a terminal too (finding 30); the API key's value is never shown, even masked.
  const shown = key === "api-key" ? "" : ` = ${displayValue(key, value)}`;
  c.inform(`Set ${key}${shown} for profile '${c.profile}' (${store.file}).`);
}

/** `config unset KEY`. */
export async function unsetValue(c: ConfigRun, rawKey: string): Promise<void> {
  const key = parseConfigKey(rawKey);
  const removed = (await openConfigStore(c.env)).unset(c.profile, key);
  c.inform(
    removed
      ? `Removed ${key} from profile '${c.profile}'.`
      : `${key} was not set in profile '${c.profile}'.`,
  );
}

/** `config list`: the active profile's values, api-key masked. */
export async function listValues(c: ConfigRun): Promise<void> {
  const store = await openConfigStore(c.env);
  const values = maskProfile(store.profile(c.profile));
  if (c.format === "table" && Object.keys(values).length === 0)
    return c.notice(`Profile '${c.profile}' has no stored settings (${store.file}).`);
  await writeRecord(values, {
    format: c.format,
    io: c.io,
    renderTable: () => renderConfigTable(values, c.io),
    rows: Object.entries(values).map(([key, value]) => ({ key, value })),
  });
}
