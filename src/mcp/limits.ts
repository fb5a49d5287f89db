/**
 * What `coverage mcp` accepts and holds: a bad or hostile client gets an error, never a server
 * that stops answering or grows without bound (docs/decisions.md, "The MCP server's limits").
 */
export const INPUT_LIMITS = {
  /** Codes (or diagnoses) in one call, counting each of "CPT:97110,97112". */
  codes: 100,
  /** One code string (a system and up to `codes` codes joined by commas). */
  codeChars: 1000,
  /** A policy id or key, a payer id. */
  idChars: 200,
  /** Payer ids in one call. */
  payers: 100,
  /** The free-text words of search_policies. */
  queryChars: 4000,
  /** The largest `offset` (a page past it holds nothing anyway). */
  offset: 1_000_000,
  /**
   * A claim line's units of service: a billion is an answer; beyond, no claim line (a day's
   * total of 100 lines stays an exact number, far below 2^53).
   */
  units: 1_000_000_000,
} as const;

/**
 * Array items and object members in one call's arguments, counted by the SDK before the schema
 * runs: above every legitimate call (codes, diagnoses, payers, states, lobs together).
 */
export const MAX_INPUT_ELEMENTS = 2000;

/** The largest message (one line on stdin) read; a longer one is refused unread. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Tool calls run at once. Local answers share one thread, in synchronous stretches (SQLite): more
 * at once only finish later, and what comes behind them waits for all of them (a ping behind 40
 * heavy calls on the 1M-link snapshot: 3 s with 1, 5 s with 2, 18 s with 8, loaded). Two, so
 * that one slow call never holds the next, and calls to the HTTP API overlap somewhat.
 */
export const MAX_RUNNING_CALLS = 2;
/** Tool calls waiting their turn; past this the server reads no more of stdin for a while. */
export const MAX_WAITING_CALLS = 1000;

/** The text of a tool result stays under this many bytes (UTF-8); structuredContent has the rest. */
export const TEXT_LIMIT = 64 * 1024;

/** The number of codes in code strings: "CPT:97110,97112" counts 2. */
export function countCodes(codes: readonly string[]): number {
  let n = 0;
  for (const code of codes) n += code.split(",").length;
  return n;
}
