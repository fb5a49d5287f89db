import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { lazySchema } from "../../../src/contract/lazy.js";
import { compileSchemas } from "../../../src/contract/validation.js";

// zod compiles an object schema with `new Function` on its first parse unless told not to.
// The CLI builds every schema through lazySchema, which applies the setting (zod itself is
// loaded on first use in the built CLI).
describe("compileSchemas", () => {
  afterEach(() => {
    compileSchemas(true);
    vi.restoreAllMocks();
  });

  it.each([
    { enabled: false, compiles: false },
    { enabled: true, compiles: true },
  ])("enabled: $enabled -> compiles a new schema: $compiles", ({ enabled, compiles }) => {
    compileSchemas(enabled);
    const spy = vi.spyOn(globalThis, "Function");
    const schema = lazySchema(() => z.object({ a: z.string(), b: z.number() }));
    expect(schema.parse({ a: "x", b: 1 })).toEqual({ a: "x", b: 1 });
    expect(spy.mock.calls.length > 0).toBe(compiles);
  });
});
