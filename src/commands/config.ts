import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { CONFIG_KEYS } from "../config/keys.js";
import { resolveConfigFile } from "../config/paths.js";
import type { ConfigRun } from "../config/actions.js";
import { createConfigRun } from "../cli/config-context.js";
import { examples } from "./shared.js";

// The actions (conf, tables) load only when a config command runs, not at every start-up.
const actions = () => import("../config/actions.js");

type Handler = (c: ConfigRun, args: Array<string | undefined>) => Promise<void>;

function action(run: RunEnvironment, handler: Handler) {
  return async (...all: unknown[]) =>
    handler(
      await createConfigRun(all[all.length - 1] as Command, run),
      all.slice(0, -2) as Array<string | undefined>,
    );
}

/** `coverage config get|set|unset|list|path`: the profile settings in config.json (mode 0600). */
export function registerConfig(program: Command, run: RunEnvironment): void {
  const keys = CONFIG_KEYS.join(", ");
  const config = program
    .command("config")
    .description(`stored settings per profile (--profile): ${keys}`)
    .addHelpText(
      "after",
      examples([
        "coverage config set api-url https://api.example.com",
        'printf %s "$COVERAGE_KEY" | coverage config set api-key',
        "coverage --profile staging config list",
      ]),
    );
  config
    .command("get")
    .description("print a stored value (api-key masked)")
    .argument("<key>", keys)
    .action(action(run, async (c, [key]) => (await actions()).getValue(c, key as string)));
  config
    .command("set")
    .description("store a value; api-key is read from stdin or a hidden prompt, never argv")
    .argument("<key>", keys)
    .argument("[value]", "the value (not for api-key)")
    .addHelpText(
      "after",
      examples([
        "coverage config set format json",
        "coverage config set timeout 10000",
        "coverage config set api-key < key.txt",
      ]),
    )
    .action(
      action(run, async (c, [key, value]) => (await actions()).setValue(c, key as string, value)),
    );
  config
    .command("unset")
    .description("remove a stored value")
    .argument("<key>", keys)
    .action(action(run, async (c, [key]) => (await actions()).unsetValue(c, key as string)));
  config
    .command("list")
    .description("the active profile's stored values (api-key masked)")
    .action(action(run, async (c) => (await actions()).listValues(c)));
  config
    .command("path")
    .description("print where the config file is")
    .action(
      action(run, async (c) => {
        c.io.stdout.write(resolveConfigFile(c.env) + "\n");
      }),
    );
}
