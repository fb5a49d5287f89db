import type { ChalkInstance } from "chalk";
import { importEsm } from "../import-esm.js";

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

/** Table width: the terminal's, else COLUMNS, else 120 (pipes get room to spare). */
function terminalColumns(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv): number {
  const cols = Number(env.COLUMNS);
  if (Number.isInteger(cols) && cols > 20) return cols;
  const ttyCols = (stream as NodeJS.WriteStream).columns;
  if (ttyCols && ttyCols > 20) return ttyCols;
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
    columns: terminalColumns(stdout, env),
    color,
    chalk: color ? new (await importEsm("chalk")).Chalk({ level: 1 }) : plainChalk,
  };
}

// CSI / OSC / other escape sequences, then any C0/C1 control other than tab and newline.
const ESCAPES =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidirectional embeddings, overrides and isolates: they reorder what the terminal shows, so a
// policy id on screen could differ from the one to type.
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

// The same, carriage returns kept (a CSV cell's line ends are data).
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_CR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * Strips terminal control sequences from text that came from the API or a dataset (tabs and
 * line feeds kept; carriage returns too with `keepCr`).
 */
export function stripControls(text: string, keepCr = false): string {
  return text
    .replace(ESCAPES, "")
    .replace(keepCr ? CONTROLS_BUT_CR : CONTROLS, "")
    .replace(BIDI, "");
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
