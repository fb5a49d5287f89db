import * as z from "zod";
import { lazySchema } from "../contract/lazy.js";

// Built on first use: every run loads this module (it reads the profile), few validate one.

export const CONFIG_KEYS = [
  "api-url",
  "sandbox-url",
  "api-key",
  "format",
  "timeout",
  "data",
] as const;
export const ConfigKey = lazySchema(() => z.enum(CONFIG_KEYS));
export type ConfigKey = z.infer<typeof ConfigKey>;

/** One profile's settings as stored. */
export const Profile = lazySchema(() =>
  z.object({
    "api-url": z.string().optional(),
    "sandbox-url": z.string().optional(),
    "api-key": z.string().optional(),
    format: z.string().optional(),
    timeout: z.union([z.string(), z.number()]).optional(),
    data: z.string().optional(),
  }),
);
export type Profile = z.infer<typeof Profile>;

export const ConfigFile = lazySchema(() =>
  z.object({
    profiles: z.record(z.string(), Profile).optional(),
  }),
);
export type ConfigFile = z.infer<typeof ConfigFile>;
