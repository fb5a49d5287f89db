import { createHash, type Hash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { isTimeout } from "../backend/http-errors.js";
import { redactUrl } from "../backend/http-redact.js";
import {
  computeBackoffMs,
  formatWait,
  isConnectionReset,
  isRetryableStatus,
  MAX_RETRIES,
  parseRetryAfter,
  readErrorCode,
} from "../backend/http-retry.js";
import { writeChunkTo } from "../download/save-file.js";
import { formatBytes, formatDuration } from "../download/progress.js";
import { openSource, type DownloadSource } from "../download/source.js";
import {
  CliError,
  InterruptedError,
  NotFoundError,
  RateLimitError,
  UnexpectedError,
  UsageError,
} from "../errors.js";
import {
  DEADLINE_FLAG,
  DEFAULT_STALL_SECONDS,
  deadlineMs,
  describeDeadline,
  STALL_FLAG,
  type PullLimits,
} from "./wire-limits.js";

/** The largest file a pull accepts (the whole MCD export is ~75 MB; CMS's largest zip far less). */
export const MAX_FILE_BYTES = 2 * 1024 ** 3;
/** The largest page read for links (CMS's pages are ~200 KB). */
const MAX_PAGE_BYTES = 16 * 1024 ** 2;

export interface FetchOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  env: NodeJS.ProcessEnv;
  /** First backoff step (COVERAGE_RETRY_BASE_MS in tests). */
  retryBaseMs: number;
  /** A retry, said to the user ("... retrying in 1.0 s"). */
  notify: (line: string) => void;
  verbose?: ((line: string) => void) | undefined;
  /** What the file is for, in messages (`ncd.zip`, `the ICD-10-CM page`). */
  label: string;
  /** How to fix a URL that fails (`--source URL`, `--hcpcs-url URL`). */
  fix: string;
  /** How long a file's body may go without a byte, and take in all (defaults: wire-limits.ts). */
  limits?: PullLimits | undefined;
}

/** What the server said of a file the last time: a conditional request asks whether it changed. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export interface FileProgress {
  start(total: number | undefined, resumedAt: number): void;
  update(bytes: number): void;
}

export type FetchedFile =
  | { changed: false }
  | {
      changed: true;
      size: number;
      sha256: string;
      etag: string | null;
      lastModified: string | null;
    };

function header(source: DownloadSource, name: string): string | null {
  const value = source.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** The way on when CMS cannot be reached: exports the user already has import offline. */
const OFFLINE =
  "Exports you already have (zips or folders from CMS) import without a network: coverage data import mcd FILES...";

/** No byte came for the stall limit: the connection is given up, as a dropped one. */
class StallError extends Error {
  readonly code = "COVERAGE_STALL";
}

/** Whether a failure is worth another request: a dropped connection (cli.md's wire conventions). */
function isDropped(err: unknown): boolean {
  return (
    err instanceof StallError ||
    isConnectionReset(err) ||
    readErrorCode(err) === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH"
  );
}

/**
 * Watches a body as it is read: no byte for `stallMs` destroys it with a StallError, and
 * passing `deadlineAt()` (read again when it comes: it may have moved) with `late()`.
 * `byte()` after each chunk; `stop()` when done.
 */
function watchBody(
  stream: DownloadSource["stream"],
  stallMs: number,
  deadlineAt: () => number,
  late: () => Error,
): { byte: () => void; stop: () => void } {
  const stall = setTimeout(() => stream.destroy(new StallError("stalled")), stallMs);
  let deadline: NodeJS.Timeout | undefined;
  const check = () => {
    const left = deadlineAt() - Date.now();
    if (left <= 0) stream.destroy(late());
    else deadline = setTimeout(check, left);
  };
  check();
  return {
    byte: () => void stall.refresh(),
    stop: () => {
      clearTimeout(stall);
      clearTimeout(deadline);
    },
  };
}

/**
 * GETs `url` with the wire conventions' retries: 429 (after Retry-After), 502, 503, 504 and
 * dropped connections, at most 3 times with exponential backoff and jitter. The answer's body
 * is the caller's to read and close (a 304, a 206 and any other status come back).
 */
async function request(
  url: string,
  headers: Record<string, string>,
  options: FetchOptions,
  retry: { count: number },
): Promise<DownloadSource> {
  const shown = redactUrl(url);
  for (;;) {
    let source: DownloadSource | undefined;
    let why: string;
    let wait: number;
    try {
      source = await openSource(url, {
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        // The stall limit watches a file's body (fetchFile); undici's idle timer stays behind it.
        bodyTimeoutMs: Math.max(options.timeoutMs, stallLimitMs(options) + 1000),
        env: options.env,
        verbose: options.verbose,
        headers,
        accept: () => true,
        unreachable: OFFLINE,
      });
    } catch (err) {
      if (options.signal.aborted) throw new InterruptedError("pull interrupted");
      if (!isDropped(err) || retry.count >= MAX_RETRIES) throw err;
      why = `the connection was dropped (${readErrorCode(err)})`;
      wait = computeBackoffMs(retry.count, options.retryBaseMs);
    }
    if (source) {
      if (!isRetryableStatus(source.status) || retry.count >= MAX_RETRIES) return source;
      await source.stream.resume();
      await source.close();
      why = `the server answered ${source.status}`;
      wait =
        ((source.status === 429 || source.status === 503) &&
          parseRetryAfter(header(source, "retry-after") ?? undefined, Date.now())) ||
        computeBackoffMs(retry.count, options.retryBaseMs);
    }
    retry.count++;
    options.notify(
      `${options.label}: ${why!}; retrying GET ${shown} in ${formatWait(wait!)} (retry ${retry.count} of ${MAX_RETRIES})`,
    );
    try {
      await sleep(wait!, undefined, { signal: options.signal });
    } catch {
      throw new InterruptedError("pull interrupted");
    }
  }
}

/** The error for an answer that is not the file: named by what it was for, with the fix. */
function statusError(status: number, url: string, options: FetchOptions): CliError {
  const where = `${options.label}: GET ${redactUrl(url)} answered ${status}`;
  if (status === 404 || status === 410)
    return new NotFoundError(
      `${where} (not found)`,
      `Check the address, or give it with ${options.fix}.`,
    );
  if (status === 429)
    return new RateLimitError(
      `${where} (rate limited) after ${MAX_RETRIES} retries`,
      "Try again later.",
    );
  return new UnexpectedError(
    where,
    status >= 500 ? "The server is having trouble; try again later." : `Check ${options.fix}.`,
  );
}

function tooLarge(options: FetchOptions, bytes: number): CliError {
  return new UsageError(
    `${options.label} is larger than ${MAX_FILE_BYTES / 1024 ** 3} GiB (${bytes} bytes): refused`,
    `No file of the Medicare catalogue is that large; check ${options.fix}.`,
  );
}

function limitsOf(options: FetchOptions): PullLimits {
  return options.limits ?? { stallMs: DEFAULT_STALL_SECONDS * 1000, deadlineMs: undefined };
}

function stallLimitMs(options: FetchOptions): number {
  return limitsOf(options).stallMs;
}

const ofSize = (received: number, size: number | undefined) =>
  `${formatBytes(received)}${size === undefined ? "" : ` of ${formatBytes(size)}`}`;

/** A file (or page) past its deadline: which, how it was set, and how to give it more. */
function deadlineError(
  options: FetchOptions,
  shown: string,
  size: number | undefined,
  received: number,
): CliError {
  const limits = limitsOf(options);
  const allowed = formatDuration(deadlineMs(limits, size, received) / 1000);
  return new UnexpectedError(
    `${options.label}: the download of ${shown} passed its deadline of ${allowed} (${describeDeadline(limits, size)}) with ${ofSize(received, size)} in: the server sends too slowly`,
    `Nothing was changed. Try again later, or allow more time with ${DEADLINE_FLAG}.`,
  );
}

/** No byte for the stall limit, after the retries. */
function stallError(
  options: FetchOptions,
  shown: string,
  size: number | undefined,
  received: number,
  retries: number,
): CliError {
  return new UnexpectedError(
    `${options.label}: no byte came from ${shown} for ${formatDuration(limitsOf(options).stallMs / 1000)} (the stall limit), after ${ofSize(received, size)} and ${retries} retries`,
    `Nothing was changed. Try again later, or wait longer with ${STALL_FLAG}.`,
  );
}

/** Whether a 206 continues the version If-Range named: its own ETag or date, when it gives one. */
function sameVersion(ifRange: string, source: DownloadSource): boolean {
  const isTag = ifRange.startsWith('"') || ifRange.startsWith("W/");
  const now = header(source, isTag ? "etag" : "last-modified");
  return now === null || now === ifRange;
}

/** `bytes START-END/TOTAL` of a 206 answer. */
function parseContentRange(
  value: string | null,
): { start: number; total: number | undefined } | undefined {
  const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(value?.trim() ?? "");
  if (!m) return undefined;
  return { start: Number(m[1]), total: m[3] === "*" ? undefined : Number(m[3]) };
}

/**
 * Downloads `url` into `file` (created when a body comes; the caller removes it on failure). With
 * `previous`, asks whether it changed (If-None-Match / If-Modified-Since): a 304 is
 * `{ changed: false }`. A dropped connection is retried and, when the server allows ranges,
 * resumed where it stopped (If-Range keeps the pieces of one version). The SHA-256 is
 * computed as the bytes arrive.
 */
export async function fetchFile(
  url: string,
  file: string,
  previous: Validators | undefined,
  options: FetchOptions & {
    progress?: FileProgress | undefined;
    /** Called once before the file is made (its folder made only when a body comes). */
    prepare?: (() => Promise<void>) | undefined;
  },
): Promise<FetchedFile> {
  const retry = { count: 0 };
  const limits = limitsOf(options);
  const began = Date.now();
  // The file's whole size, once an answer announced it.
  let size: number | undefined;
  const shown = redactUrl(url);
  const late = () => deadlineError(options, shown, size, written);
  let handle: FileHandle | undefined;
  let written = 0;
  let hash: Hash = createHash("sha256");
  let validators: Validators = { etag: null, lastModified: null };
  // From the first byte again: an empty file (its offset at 0) and a fresh hash.
  const restart = async () => {
    await handle?.close();
    handle = undefined;
    handle = await open(file, "w");
    written = 0;
    hash = createHash("sha256");
  };
  try {
    for (;;) {
      if (Date.now() - began > deadlineMs(limits, size, written)) throw late();
      const headers: Record<string, string> = {};
      if (written > 0) {
        headers.range = `bytes=${written}-`;
        // Only a strong ETag or a date may tell a range request the version it continues.
        const same =
          validators.etag && !validators.etag.startsWith("W/")
            ? validators.etag
            : validators.lastModified;
        if (same) headers["if-range"] = same;
      } else if (previous) {
        if (previous.etag) headers["if-none-match"] = previous.etag;
        if (previous.lastModified) headers["if-modified-since"] = previous.lastModified;
      }
      const source = await request(url, headers, options, retry);
      let total: number | undefined;
      try {
        if (source.status === 304 && written === 0 && previous) return { changed: false };
        if (source.status === 206 && written > 0) {
          const range = parseContentRange(header(source, "content-range"));
          const asked = headers["if-range"];
          if (asked !== undefined && !sameVersion(asked, source)) {
            // A server that ignored If-Range: its bytes are another version's, never spliced.
            if (retry.count >= MAX_RETRIES)
              throw new UnexpectedError(
                `${options.label}: ${shown} kept changing while it was downloaded (${MAX_RETRIES} retries)`,
                "Nothing was changed. Try again later.",
              );
            retry.count++;
            options.notify(
              `${options.label}: the server resumed with another version of the file (${header(source, "etag") ?? header(source, "last-modified")}, not ${asked}); fetching it whole (retry ${retry.count} of ${MAX_RETRIES})`,
            );
            await restart();
            continue;
          }
          if (range?.start !== written) {
            // Not the rest of what we have: start again from the first byte.
            await restart();
            continue;
          }
          total = range.total;
        } else if (source.status === 200) {
          // A whole file (the first answer, or a server that ignored the range): from zero.
          if (handle) await restart();
          else {
            await options.prepare?.();
            handle = await open(file, "wx");
          }
          total = source.size;
          validators = {
            etag: header(source, "etag"),
            lastModified: header(source, "last-modified"),
          };
        } else throw statusError(source.status, url, options);
        if (total !== undefined && total > MAX_FILE_BYTES) throw tooLarge(options, total);
        size = total;
        options.progress?.start(total, written);
        const fd = handle!.fd;
        const watch = watchBody(
          source.stream,
          limits.stallMs,
          () => began + deadlineMs(limits, size, written),
          late,
        );
        try {
          for await (const chunk of source.stream as AsyncIterable<Buffer>) {
            watch.byte();
            if (written + chunk.length > MAX_FILE_BYTES)
              throw tooLarge(options, written + chunk.length);
            // The file's offset is `written`: a resumed body continues where the last one stopped.
            written += writeChunkTo(fd, chunk, file);
            hash.update(chunk);
            options.progress?.update(written);
          }
        } finally {
          watch.stop();
        }
        if (total !== undefined && written !== total)
          throw Object.assign(new Error(`${written} of ${total} bytes`), {
            code: "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
          });
        return { changed: true, size: written, sha256: hash.digest("hex"), ...validators };
      } catch (err) {
        if (options.signal.aborted) throw new InterruptedError("pull interrupted");
        if (err instanceof CliError || !isDropped(err) || retry.count >= MAX_RETRIES) {
          if (err instanceof CliError) throw err;
          if (err instanceof StallError)
            throw stallError(options, shown, size, written, retry.count);
          throw new UnexpectedError(
            `${options.label}: the download of ${redactUrl(url)} was cut off after ${written} bytes (${readErrorCode(err) ?? (err as Error).message})${retry.count ? ` and ${retry.count} retries` : ""}`,
            isTimeout(err)
              ? "The server stopped sending: raise --timeout, or try again later."
              : "Try again later; nothing was changed.",
          );
        }
        retry.count++;
        const wait = computeBackoffMs(retry.count - 1, options.retryBaseMs);
        const why =
          err instanceof StallError
            ? `no byte came for ${formatDuration(limits.stallMs / 1000)} (the stall limit)`
            : "the connection dropped";
        options.notify(
          `${options.label}: ${why} after ${written} bytes; resuming in ${formatWait(wait)} (retry ${retry.count} of ${MAX_RETRIES})`,
        );
        try {
          await sleep(wait, undefined, { signal: options.signal });
        } catch {
          throw new InterruptedError("pull interrupted");
        }
      } finally {
        await source.close();
      }
    }
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Reads a web page (CMS's ICD-10 or HCPCS page) as text, with the same retries. */
export async function fetchPage(url: string, options: FetchOptions): Promise<string> {
  const began = Date.now();
  const source = await request(url, {}, options, { count: 0 });
  const shown = redactUrl(url);
  const limits = limitsOf(options);
  let size = 0;
  try {
    if (source.status < 200 || source.status >= 300) throw statusError(source.status, url, options);
    const chunks: Buffer[] = [];
    // A page trickled byte by byte meets the same limits as a file.
    const watch = watchBody(
      source.stream,
      limits.stallMs,
      () => began + deadlineMs(limits, source.size, size),
      () => deadlineError(options, shown, source.size, size),
    );
    try {
      for await (const chunk of source.stream as AsyncIterable<Buffer>) {
        watch.byte();
        size += chunk.length;
        if (size > MAX_PAGE_BYTES)
          throw new UsageError(
            `${options.label}: ${shown} is larger than ${MAX_PAGE_BYTES / 1024 ** 2} MB; not a web page`,
            `Give the zip's own address with ${options.fix}.`,
          );
        chunks.push(chunk);
      }
    } finally {
      watch.stop();
    }
    return Buffer.concat(chunks).toString("utf8");
  } catch (err) {
    if (options.signal.aborted) throw new InterruptedError("pull interrupted");
    if (err instanceof CliError) throw err;
    if (err instanceof StallError) throw stallError(options, shown, source.size, size, 0);
    throw new UnexpectedError(
      `${options.label}: reading ${redactUrl(url)} failed (${readErrorCode(err) ?? (err as Error).message})`,
      `Try again later, or give the zip's own address with ${options.fix}.`,
    );
  } finally {
    await source.close();
  }
}
