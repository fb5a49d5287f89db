import path from "node:path";
import type { Command } from "commander";
import type { ApiRequest } from "../api/request.js";
import { ApiClient } from "../backend/client.js";
import { LOCAL_BASE_URL } from "../backend/local.js";
import type { Transport } from "../backend/transport.js";
import { readProfile } from "../config/read.js";
import { resolveToday } from "../engine/time.js";
import { createPendingSpinner } from "../output/spinner.js";
import { createIo, stripControls, type Io } from "../output/terminal.js";
import { wrapWords } from "../domain/terminal-text.js";
import { checkBaseUrl } from "../backend/base-url.js";
import { maskSecrets, redactUrl } from "../backend/http-redact.js";
import { describeRequest } from "./dry-run.js";
import {
  resolveProfileName,
  resolveSettings,
  type GlobalFlags,
  type Settings,
} from "./settings.js";

/** What a command needs: settings, output streams, and the API client (made on first use). */
export interface CommandContext {
  settings: Settings;
  io: Io;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The client over the chosen backend; loads the dataset or opens the HTTP agent once. */
  client(): Promise<ApiClient>;
  /** A client that only validates and builds requests (for `--dry-run`: nothing is loaded or sent). */
  offlineClient(): ApiClient;
  /** "Today" as the engine sees it (flag, env, dataset `as_of`, real date). */
  today(): Promise<string>;
  /** Prints the request `--dry-run` describes. */
  printDryRun(req: ApiRequest): void;
  /** A notice on stderr: only on a TTY and never with --quiet. */
  notice(message: string): void;
  /** A warning on stderr (not suppressed by TTY, only by --quiet). */
  warn(message: string): void;
  /** A line for people on stderr, terminal or not (never with --quiet); not a warning. */
  inform(message: string): void;
  close(): Promise<void>;
}

export interface RunEnvironment {
  env: NodeJS.ProcessEnv;
  /**
   * The CLI itself, for a command that runs others in process (`mcp`): handed down by runCli,
   * so that no command imports the runner that imports the commands.
   */
  runCli?: (argv: string[], run: RunEnvironment) => Promise<number>;
  /** Standard input (`--body -`, a piped API key); the process's when absent. */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  now?: () => Date;
  signal: AbortSignal;
  /**
   * Called by a command whose result is final (a download in place), so that a Ctrl-C coming
   * later does not turn a success into exit 130.
   */
  completed?: () => void;
  /**
   * A backend kept open across runs: `coverage mcp` runs one command per tool call, and each
   * reuses what the first one opened (a dataset is loaded once). No run closes it.
   */
  backend?: SharedBackend;
}

/** The open backend of a run: its transport, "today" and where its answers come from. */
export interface OpenBackend {
  transport: Transport;
  today: string;
  source: string;
}

/** The slot that runs sharing one backend keep it in (see RunEnvironment.backend). */
export interface SharedBackend {
  open?: Promise<OpenBackend>;
}

function resolveBaseUrl(settings: Settings): string {
  return settings.backend.kind === "http" ? settings.backend.baseUrl : LOCAL_BASE_URL;
}

/** Builds the context of one command run from its parsed options. */
export async function createContext(
  command: Command,
  run: RunEnvironment,
): Promise<CommandContext> {
  const flags = command.optsWithGlobals<GlobalFlags>();
  const { env } = run;
  const settings = resolveSettings(flags, env, readProfile(resolveProfileName(flags, env), env));
  const { backend } = settings;
  // `--data medicare`: a snapshot of the data folder (cli.md); every reader gets its path.
  if (backend.kind === "local" && backend.data !== undefined && /^[\w-]+$/.test(backend.data)) {
    const { resolveNamedData } = await import("../dataset/data-dir.js");
    settings.backend = { ...backend, data: await resolveNamedData(backend.data, env) };
  }
  const io = await createIo(flags.color, env, run.stdout, run.stderr);
  io.bom = flags.bom === true;
  const now = run.now ?? (() => new Date());
  let transport: Promise<OpenBackend> | undefined;
  // While a call is pending (after ~300 ms, on a terminal): a spinner on stderr.
  const spinner = createPendingSpinner(io, settings.quiet);
  const spinning = (t: Transport): Transport => ({
    ...t,
    send: (req) =>
      spinner.around(
        t.send(req),
        `Waiting for ${t.kind === "local" ? "the local engine" : new URL(t.baseUrl).host}: ${req.method} ${req.path}`,
      ),
    close: () => t.close?.() ?? Promise.resolve(),
  });

  // A line on stderr for people, dimmed; `notice` only when a person is there to read it.
  // On a terminal, lines wrap at spaces to its width (the terminal would break words).
  const fit = (text: string) =>
    io.stderrIsTTY
      ? wrapWords(text, (io.stderr as NodeJS.WriteStream).columns || io.columns)
      : text;
  const say = (message: string) => {
    if (!settings.quiet) io.stderr.write(io.chalk.dim(fit(stripControls(message))) + "\n");
  };
  const notice = (message: string) => {
    if (io.stderrIsTTY) say(message);
  };
  const warn = (message: string) => {
    if (!settings.quiet) io.stderr.write(`${fit(`warning: ${stripControls(message)}`)}\n`);
  };

  // The API answers with its own data and date: these two flags do not reach it.
  if (settings.backend.kind === "http") {
    const api = `the API at ${redactUrl(settings.backend.baseUrl, [settings.apiKey])}`;
    if (flags.data !== undefined)
      warn(
        `--data applies to the local engine only; ${api} answers from its own data (add --local to query ${flags.data}).`,
      );
    if (flags.today !== undefined)
      warn(
        `--today applies to the local engine only; ${api} filters by its own date (here --today sets only what this client works out: the status column, the day \`code\` and \`matrix\` look at, the version \`policy KEY\` picks).`,
      );
  }

  const openBackend = async (): Promise<OpenBackend> => {
    if (settings.backend.kind === "local") {
      const [{ bundledDatasetPath }, { openDataset }, { createLocalTransport }, { isSqliteFile }] =
        await Promise.all([
          import("../dataset/load.js"),
          import("../dataset/open.js"),
          import("../backend/local.js"),
          import("../snapshot/sqlite.js"),
        ]);
      const loaded = await openDataset(settings.backend.data ?? bundledDatasetPath());
      // cli.md: this one line is on stderr whether or not it is a TTY (unless --quiet), so a
      // script learns that it is reading sample data; short enough for 80 columns (--help and
      // `coverage config set api-url` tell the rest).
      if (settings.backend.defaulted)
        say(
          `${settings.backend.data ? `Using the local engine over ${settings.backend.data}` : "Using the bundled sample data"} (no API configured; set one with --api-url).`,
        );
      const today = resolveToday(settings.today, undefined, loaded.db.asOf, now());
      const source = `${settings.backend.data ? `local ${isSqliteFile(loaded.file) ? "snapshot" : "dataset"} ${path.basename(loaded.file)}` : "the bundled sample data"}${loaded.db.asOf ? `, as of ${loaded.db.asOf}` : ""}`;
      return { transport: spinning(createLocalTransport(loaded, today)), today, source };
    }
    const { createHttpTransport } = await import("../backend/http.js");
    const t = spinning(
      createHttpTransport({
        baseUrl: settings.backend.baseUrl,
        apiKey: settings.apiKey,
        timeoutMs: settings.timeoutMs,
        verbose: settings.verbose ? (line) => spinner.write(line) : undefined,
        notify: (line) => {
          if (!settings.quiet) spinner.write(line);
        },
        signal: run.signal,
        env,
      }),
    );
    const host = new URL(settings.backend.baseUrl).host;
    const today = resolveToday(settings.today, undefined, null, now());
    const opened: OpenBackend = {
      transport: t,
      today,
      get source() {
        return `the Coverage API at ${host}, as of ${this.today}`;
      },
    };
    // The API's day, once an answer says it (unless --today pins it): statuses and the day
    // `code` and `matrix` look at are the API's, not this machine's clock.
    opened.transport = {
      ...t,
      send: async (req) => {
        const res = await t.send(req);
        const day = res.headers?.["coverage-today"];
        if (day && settings.today === undefined) opened.today = day;
        return res;
      },
    };
    return opened;
  };
  const open = () =>
    run.backend ? (run.backend.open ??= openBackend()) : (transport ??= openBackend());

  return {
    settings,
    io,
    env,
    signal: run.signal,
    client: async () => new ApiClient((await open()).transport),
    offlineClient: () =>
      new ApiClient({
        kind: settings.backend.kind,
        baseUrl: resolveBaseUrl(settings),
        send: () => Promise.reject(new Error("offline client")),
      }),
    today: async () => {
      if (settings.backend.kind !== "http") return (await open()).today;
      // Over HTTP the open backend follows the API's answers; before any, this machine's day.
      const opened = run.backend?.open ?? transport;
      return opened ? (await opened).today : resolveToday(settings.today, undefined, null, now());
    },
    printDryRun: (req) => {
      // What a dry run shows must be what would be sent: the same base URL checks.
      if (settings.backend.kind === "http") checkBaseUrl(settings.backend.baseUrl, settings.apiKey);
      const keySet = settings.backend.kind === "http" && Boolean(settings.apiKey);
      // The key never shows, also where the user put it in --api-url or a search text.
      const line = JSON.stringify(describeRequest(resolveBaseUrl(settings), req, keySet));
      io.stdout.write(maskSecrets(line, [settings.apiKey]) + "\n");
      if (settings.backend.kind === "http" && !settings.apiKey && req.path.startsWith("/v1/"))
        warn(
          "no API key is set: the real run would fail (exit 3). Set one with `coverage config set api-key` (reads stdin) or COVERAGE_API_KEY.",
        );
    },
    notice,
    warn,
    inform: say,
    close: async () => {
      // A shared backend stays open for the next run; its owner closes it.
      if (transport) await (await transport).transport.close?.();
    },
  };
}
