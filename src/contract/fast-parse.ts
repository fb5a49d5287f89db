/**
 * Build-time parsers of the contract's schemas (src/contract/fast-parse.generated.ts, made by
 * `npm run fast-parse` from the zod schemas themselves). A one-shot command parses a request and
 * a response once each: building the zod schemas for that, and running zod's generic parse,
 * was ~4 ms of a 25 ms local search. A generated parser accepts exactly what its schema
 * accepts and returns the value zod would (a copy, keys in the schema's order); on anything
 * else, and for a schema it cannot express, it gives up (FAIL) and zod parses, so every error
 * message is still zod's. A property test holds each one to its schema.
 */

/** A generated parser's answer when zod must decide. */
export const FAIL: unique symbol = Symbol("fast-parse: let zod decide");

export type FastParser = (input: unknown) => unknown;

const parsers = new WeakMap<object, FastParser>();

/** Registers the generated parser of each schema (called by the generated module). */
export function registerFastParsers(entries: ReadonlyArray<readonly [object, FastParser]>): void {
  for (const [schema, parse] of entries) parsers.set(schema, parse);
}

/** The generated parser of `schema`, if there is one (looking does not build a lazy schema). */
export function fastParserOf(schema: object): FastParser | undefined {
  return parsers.get(schema);
}

/** zod's `util.isPlainObject` (zod/v4/core/util.js), which its record checks first. */
export function isPlainObject(o: unknown): boolean {
  if (typeof o !== "object" || o === null || Array.isArray(o)) return false;
  const ctor: unknown = (o as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const prot: unknown = (ctor as { prototype?: unknown }).prototype;
  if (typeof prot !== "object" || prot === null || Array.isArray(prot)) return false;
  return Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf");
}
