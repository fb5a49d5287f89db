import type { ChalkInstance } from "chalk";
import { stripControls } from "../domain/terminal-text.js";

// Shared with the client and downloads (domain/); renderers keep finding it here.
export { stripControls };

/** Where output goes and what the terminal can show; decided once per run. */
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Width tables fit into. */
  columns: number;
  /** Colour for stdout. */
  color: boolean;
  chalk: ChalkInstance;
  /** `--bom`: CSV starts with a UTF-8 byte-order mark. */
  bom?: boolean;
}

/**
 * Colour decision in one place (chalk alone ignores NO_COLOR): `--no-color`, then NO_COLOR,
 * then FORCE_COLOR, then TERM=dumb, then whether the stream is a TTY.
 */
function shouldColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.TERM === "dumb") return false;
  return isTTY;
}

/**
 * Table width: COLUMNS, else the terminal's; piped (`| head`, `| less`) with stderr still on a
 * terminal, that terminal's, where the table is read (finding N15); else 120.
 */
function terminalColumns(
  stream: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
  stderr?: NodeJS.WritableStream,
): number {
  const cols = Number(env.COLUMNS);
  if (Number.isInteger(cols) && cols > 20) return cols;
  const ttyCols = (stream as NodeJS.WriteStream).columns;
  if (ttyCols && ttyCols > 20) return ttyCols;
  const reader = stderr as NodeJS.WriteStream | undefined;
  if (reader?.isTTY && reader.columns > 20) return reader.columns;
  return 120;
}

/** Chalk at level 0, without loading chalk: every style returns its text unchanged. */
const plainChalk: ChalkInstance = new Proxy(() => undefined, {
  get: () => plainChalk,
  apply: (_target, _this, args: unknown[]) => args.join(" "),
}) as unknown as ChalkInstance;

/** Builds the run's `Io` from real streams and the environment; chalk is loaded only for colour. */
export async function createIo(
  colorFlag: boolean | undefined,
  env: NodeJS.ProcessEnv,
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<Io> {
  const stdoutIsTTY = Boolean((stdout as NodeJS.WriteStream).isTTY);
  const stderrIsTTY = Boolean((stderr as NodeJS.WriteStream).isTTY);
  const color = shouldColor(colorFlag, env, stdoutIsTTY);
  return {
    stdout,
    stderr,
    stdoutIsTTY,
    stderrIsTTY,
    columns: terminalColumns(stdout, env, stderr),
    color,
    chalk: color ? new (await import("chalk")).Chalk({ level: 1 }) : plainChalk,
  };
}

// What JSON.stringify leaves raw that a terminal acts on: DEL, the C1 controls (U+009B starts an
// escape sequence) and the bidi controls. C0 controls are already escaped by JSON.stringify.
const JSON_RAW_CONTROLS = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text for stdout. On a terminal the controls JSON leaves raw are written as `\uXXXX`
 * escapes: the same data once parsed, nothing for the terminal to act on.
 */
export function formatJson(io: Pick<Io, "stdoutIsTTY">, value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent);
  if (!io.stdoutIsTTY) return json;
  return json.replace(
    JSON_RAW_CONTROLS,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Writes text and resolves once the stream took it: output waits for a slow reader. */
export function writeText(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
