import path from "node:path";
import { isOutputFormat, OUTPUT_FORMATS, parseTimeoutMs } from "../cli/settings.js";
import { checkBaseUrl } from "../backend/base-url.js";
import { isLoopbackHost } from "../backend/loopback.js";
import { UsageError } from "../errors.js";
import { isSnapshotName } from "../dataset/data-dir.js";
import { CONFIG_KEYS, ConfigKey } from "./keys.js";

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A config key, or exit 2 naming the valid ones. */
export function parseConfigKey(raw: string): ConfigKey {
  const parsed = ConfigKey.safeParse(raw.trim().toLowerCase());
  if (!parsed.success)
    throw new UsageError(`unknown config key '${raw}'`, `Valid keys: ${CONFIG_KEYS.join(", ")}.`);
  return parsed.data;
}

/** A profile name: letters, digits, `.`, `_`, `-` (it becomes a key of the config file). */
export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `profile name '${name}' is not allowed`,
      "Use letters, digits, '.', '_' and '-', starting with a letter or digit (e.g. --profile staging).",
    );
  return name;
}

/** Checks a value typed for a key (not `api-key`, which never comes from argv). */
export function parseConfigValue(key: Exclude<ConfigKey, "api-key">, raw: string): string | number {
  const value = raw.trim();
  switch (key) {
    case "api-url":
    case "sandbox-url": {
      const url = checkBaseUrl(value, undefined, {
        name: key,
        set: `coverage config set ${key} https://api.example.com`,
      });
      // Every later command sends the key, and refuses plain http beyond loopback: refuse it now.
      if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
        throw new UsageError(
          `${key}: '${url.origin}' is plain http to a host that is not loopback; every command would refuse to send the API key there`,
          `Use https:// (e.g. coverage config set ${key} https://${url.host}); plain http is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost).`,
        );
      return value;
    }
    case "format": {
      const format = value.toLowerCase();
      if (!isOutputFormat(format))
        throw new UsageError(
          `format: '${raw}' is not one of ${OUTPUT_FORMATS.join(", ")}`,
          "Example: coverage config set format json",
        );
      return format;
    }
    case "timeout":
      return parseTimeoutMs(value, "coverage config set timeout 10000");
    case "data":
      if (!value)
        throw new UsageError(
          "data: the value is empty",
          "Example: coverage config set data medicare (a snapshot of the data folder) or a file path",
        );
      // A path is kept absolute: the profile is read from any working folder.
      return isSnapshotName(value) ? value : path.resolve(value);
  }
}

/** An API key read from stdin or the prompt: trimmed, not empty, no spaces or control characters. */
export function checkApiKey(raw: string): string {
  const key = raw.trim();
  if (!key)
    throw new UsageError(
      "no API key was given",
      'Pipe it on stdin (`printf %s "$KEY" | coverage config set api-key`) or type it at the prompt.',
    );
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(key))
    throw new UsageError(
      "the API key holds spaces, line breaks or control characters",
      "Give the key alone, on one line.",
    );
  return key;
}

/** `***` plus at most the last 4 characters (none for short keys, which 4 would mostly reveal). */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `***${value.slice(-4)}` : "***";
}

/** A stored value as shown by `get` and `list`: the key masked. */
export function displayValue(key: string, value: string | number): string {
  return key === "api-key" ? maskSecret(String(value)) : String(value);
}
