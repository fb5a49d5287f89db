// Writes src/contract/fast-parse.generated.ts from the contract's zod schemas: `npm run fast-parse`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as prettier from "prettier";
import * as enums from "../src/contract/enums.js";
import * as requests from "../src/contract/requests.js";
import * as responses from "../src/contract/responses.js";
import * as config from "../src/config/keys.js";

export const FAST_PARSE_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "src",
  "contract",
  "fast-parse.generated.ts",
);

/**
 * The modules whose exported schemas get a parser: the name the generated file imports each as,
 * and its path from src/contract/. The config file's schema is here because every command
 * reads the profile: zod would otherwise load for every user with a config file.
 */
const MODULES = [
  ["enums", enums, "./enums.js"],
  ["requests", requests, "./requests.js"],
  ["responses", responses, "./responses.js"],
  ["config", config, "../config/keys.js"],
] as const;

/**
 * Every export of those modules: name, value, module. In one order whatever the module loader
 * (an ES module namespace lists its names sorted, a CommonJS one as declared).
 */
const EXPORTS: ReadonlyArray<readonly [string, unknown, string]> = MODULES.flatMap(
  ([module, exports]) =>
    Object.keys(exports)
      .sort()
      .map((name) => [name, (exports as Record<string, unknown>)[name], module] as const),
);

/** Functions a refinement may call, by identity: the generated file imports them from enums. */
const KNOWN_REFINEMENTS = new Map<unknown, string>([[enums.isRealDate, "isRealDate"]]);

// zod's definitions, as far as the generator (and its test) reads them.
export interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  check?: string;
  format?: string;
  coerce?: boolean;
  element?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  entries?: Record<string, unknown>;
  innerType?: Schema;
  options?: Schema[];
  inclusive?: boolean;
  keyType?: Schema;
  valueType?: Schema;
  mode?: string;
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  fn?: unknown;
}
export interface Schema {
  _zod: { def: Def; traits: Set<string> };
}

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && "_zod" in value;

/** Whether zod leaves an absent key out rather than failing (`.optional()`, `.nullish()`). */
function isOptional(schema: Schema): boolean {
  const def = schema._zod.def;
  if (def.type === "optional") return true;
  if (def.type === "nullable") return isOptional(def.innerType!);
  return false;
}

class Generator {
  // By `_zod`, the one object a lazy stand-in and the schema it builds share: a method such as
  // `.optional()` called on the stand-in wraps the schema itself.
  readonly #names = new Map<object, string>();
  readonly #functions: string[] = [];
  readonly #constants: string[] = [];
  readonly #constantNames = new Map<string, string>();
  readonly #bodies = new Map<string, string>();

  constructor(named: ReadonlyArray<readonly [string, Schema]>) {
    for (const [name, schema] of named) this.#names.set(schema._zod, name);
  }

  /** Emits the named schema's parser; its function name. */
  named(name: string, schema: Schema): string {
    const fn = `parse${name}`;
    this.#functions.push(this.#function(fn, schema));
    return fn;
  }

  /** A call that parses `expr` with `schema`: a named schema's parser, or a new function. */
  #call(schema: Schema, expr: string): string {
    const name = this.#names.get(schema._zod);
    if (name !== undefined) return `parse${name}(${expr})`;
    // One function per distinct body: `z.string().optional()` is written in many places.
    const body = this.#body(schema).join("\n");
    let fn = this.#bodies.get(body);
    if (fn === undefined) {
      fn = `p${this.#bodies.size + 1}`;
      this.#bodies.set(body, fn);
      this.#functions.push(this.#declare(fn, body));
    }
    return `${fn}(${expr})`;
  }

  #function(fn: string, schema: Schema): string {
    return this.#declare(fn, this.#body(schema).join("\n"));
  }

  #declare(fn: string, body: string): string {
    return `function ${fn}(v: any): unknown {\n${body}\n}`;
  }

  /** A module-level constant holding `expr` (one per distinct expression). */
  #constant(prefix: string, expr: string): string {
    let name = this.#constantNames.get(expr);
    if (name === undefined) {
      name = `${prefix}${this.#constantNames.size + 1}`;
      this.#constantNames.set(expr, name);
      this.#constants.push(`const ${name} = ${expr};`);
    }
    return name;
  }

  /** Statements that return the parsed `v`, or FAIL. */
  #body(schema: Schema): string[] {
    const def = schema._zod.def;
    if (def.coerce) return unsupported("coerce");
    switch (def.type) {
      case "string":
        // A format (`z.email()`, `z.iso.date()`) is a check of the schema itself.
        if (def.check !== undefined || def.format !== undefined)
          return unsupported(`string format ${def.format}`);
        return [`if (typeof v !== "string") return FAIL;`, ...this.#checks(def), "return v;"];
      case "number": {
        const own =
          def.check === "number_format"
            ? def.format === "safeint"
              ? [`if (!Number.isSafeInteger(v)) return FAIL;`]
              : undefined
            : [];
        if (!own) return unsupported(`number format ${def.format}`);
        return [
          `if (typeof v !== "number" || !Number.isFinite(v)) return FAIL;`,
          ...own,
          ...this.#checks(def),
          "return v;",
        ];
      }
      case "boolean":
        return [`if (typeof v !== "boolean") return FAIL;`, ...this.#checks(def), "return v;"];
      case "unknown":
        return def.checks?.length ? unsupported("checks on unknown") : ["return v;"];
      case "enum": {
        const values = Object.values(def.entries ?? {});
        if (!values.every((v) => typeof v === "string")) return unsupported("non-string enum");
        // The module's own list of these values where it exports one (enums.LOB_CATEGORIES).
        const list = findValueList(values as string[]);
        const set = this.#constant("VALUES", `new Set<unknown>(${list ?? JSON.stringify(values)})`);
        return [`if (!${set}.has(v)) return FAIL;`, ...this.#checks(def), "return v;"];
      }
      case "optional":
        // `.exactOptional()` refuses a key present with undefined, which this accepts.
        if (schema._zod.traits.has("$ZodExactOptional")) return unsupported("exact optional");
        if (def.checks?.length) return unsupported("checks on optional");
        return [`if (v === undefined) return v;`, `return ${this.#call(def.innerType!, "v")};`];
      case "nullable":
        if (def.checks?.length) return unsupported("checks on nullable");
        return [`if (v === null) return v;`, `return ${this.#call(def.innerType!, "v")};`];
      case "union":
        if (def.inclusive === false || def.checks?.length) return unsupported("exclusive union");
        // An option this cannot express would answer FAIL for input zod takes through it, and a
        // later option could then win with another value.
        if (!def.options!.every((o) => this.#expressible(o)))
          return unsupported("union with an option not generated");
        return [
          "let r: unknown;",
          ...def.options!.map((o) => `if ((r = ${this.#call(o, "v")}) !== FAIL) return r;`),
          "return FAIL;",
        ];
      case "array":
        return [
          "if (!Array.isArray(v)) return FAIL;",
          "const out = new Array(v.length);",
          "for (let i = 0; i < v.length; i++) {",
          `  const r = ${this.#call(def.element!, "v[i]")};`,
          "  if (r === FAIL) return FAIL;",
          "  out[i] = r;",
          "}",
          ...this.#checks(def),
          "return out;",
        ];
      case "object":
        return this.#object(def);
      case "record":
        return this.#record(def);
      default:
        return unsupported(def.type);
    }
  }

  // zod's object parse: the shape's keys in order (an absent optional key left out, a present
  // one kept even when undefined), then per catchall: strict refuses other keys, loose copies
  // them (never `__proto__`), plain drops them.
  #object(def: Def): string[] {
    if (def.checks?.length) return unsupported("checks on object");
    const catchall = def.catchall?._zod.def.type;
    if (catchall !== undefined && catchall !== "never" && catchall !== "unknown")
      return unsupported(`catchall ${catchall}`);
    const shape = def.shape ?? {};
    const keys = Object.keys(shape);
    const lines = [
      `if (typeof v !== "object" || v === null || Array.isArray(v)) return FAIL;`,
      "const out: Record<string, unknown> = {};",
      "let r: unknown;",
    ];
    for (const key of keys) {
      const k = JSON.stringify(key);
      const field = shape[key]!;
      lines.push(
        `if (${k} in v) {`,
        `  if ((r = ${this.#call(field, `v[${k}]`)}) === FAIL) return FAIL;`,
        `  out[${k}] = r;`,
        isOptional(field) ? "}" : "} else return FAIL;",
      );
    }
    if (catchall !== undefined) {
      const known = this.#constant("KEYS", `new Set(${JSON.stringify(keys)})`);
      lines.push(
        "for (const k in v) {",
        `  if (${known}.has(k)) continue;`,
        catchall === "never" ? "  return FAIL;" : `  if (k !== "__proto__") out[k] = v[k];`,
        "}",
      );
    }
    lines.push("return out;");
    return lines;
  }

  // zod's record with string keys: a plain object (zod's isPlainObject), its own enumerable keys
  // in their order (`__proto__` skipped, a symbol refused by the key schema), each value parsed.
  #record(def: Def): string[] {
    const key = def.keyType!._zod.def;
    if (def.checks?.length || def.mode !== undefined) return unsupported("record mode or checks");
    if (key.type !== "string" || key.checks?.length || key.check !== undefined)
      return unsupported("record keys other than any string");
    return [
      "if (!isPlainObject(v)) return FAIL;",
      "const out: Record<string, unknown> = {};",
      "for (const k of Reflect.ownKeys(v)) {",
      '  if (k === "__proto__" || !Object.prototype.propertyIsEnumerable.call(v, k)) continue;',
      '  if (typeof k !== "string") return FAIL;',
      `  const r = ${this.#call(def.valueType!, "v[k]")};`,
      "  if (r === FAIL) return FAIL;",
      "  out[k] = r;",
      "}",
      "return out;",
    ];
  }

  /** The statements of a schema's checks, on `v`; a check it cannot express fails. */
  #checks(def: Def): string[] {
    return (def.checks ?? []).flatMap(({ _zod: { def: c } }) => {
      switch (c.check) {
        case "min_length":
          return [`if (v.length < ${c.minimum}) return FAIL;`];
        case "max_length":
          return [`if (v.length > ${c.maximum}) return FAIL;`];
        case "greater_than":
          return [`if (!(v ${c.inclusive ? ">=" : ">"} ${c.value})) return FAIL;`];
        case "less_than":
          return [`if (!(v ${c.inclusive ? "<=" : "<"} ${c.value})) return FAIL;`];
        case "custom": {
          const fn = KNOWN_REFINEMENTS.get(c.fn);
          return fn
            ? [`if (!${fn}(v)) return FAIL;`]
            : [`return FAIL; // ${NOT_GENERATED}: a refinement unknown here`];
        }
        default:
          return [`return FAIL; // ${NOT_GENERATED}: check ${c.check}`];
      }
    });
  }

  /** Whether the parser of `schema` is generated whole (no part left to zod). */
  #expressible(schema: Schema): boolean {
    const def = schema._zod.def;
    const text = this.#body(schema).join("\n");
    if (text.includes(NOT_GENERATED)) return false;
    const inner = [
      def.innerType,
      def.element,
      def.catchall,
      def.keyType,
      def.valueType,
      ...(def.options ?? []),
      ...Object.values(def.shape ?? {}),
    ].filter((x): x is Schema => x !== undefined);
    return inner.every((x) => this.#expressible(x));
  }

  render(registrations: string[]): string {
    return [
      "// Generated by `npm run fast-parse` (scripts/generate-fast-parse.ts) from the zod schemas of",
      "// src/contract: do not edit. See src/contract/fast-parse.ts.",
      // A body left to zod ignores its argument; isPlainObject is imported whether used or not.
      this.#functions.some((f) => f.includes(NOT_GENERATED)) ||
      !this.#functions.some((f) => f.includes("isPlainObject("))
        ? "/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars */"
        : "/* eslint-disable @typescript-eslint/no-explicit-any */",
      `import { FAIL, isPlainObject, registerFastParsers } from "./fast-parse.js";`,
      ...MODULES.map(([module, , file]) => `import * as ${module} from "${file}";`),
      `import { ${[...new Set(KNOWN_REFINEMENTS.values())].join(", ")} } from "./enums.js";`,
      "",
      ...this.#constants,
      "",
      ...this.#functions.flatMap((f) => [f, ""]),
      "registerFastParsers([",
      ...registrations.map((r) => `  ${r},`),
      "]);",
      "",
    ].join("\n");
  }
}

/** `module.NAME` of an exported list holding exactly `values`, in order; undefined if none. */
function findValueList(values: readonly string[]): string | undefined {
  const found = EXPORTS.find(
    ([, value]) =>
      Array.isArray(value) &&
      value.length === values.length &&
      value.every((v, i) => v === values[i]),
  );
  return found && `${found[2]}.${found[0]}`;
}

const NOT_GENERATED = "not generated";

function unsupported(what: string): string[] {
  return [`return FAIL; // ${NOT_GENERATED}: ${what}`];
}

/** The generated module's text (unformatted) for these schemas: name, schema, module. */
export function renderParsers(named: ReadonlyArray<readonly [string, unknown, string]>): string {
  const schemas = named.filter((n): n is readonly [string, Schema, string] => isSchema(n[1]));
  const generator = new Generator(schemas.map(([name, schema]) => [name, schema]));
  const registrations = schemas.map(
    ([name, schema, module]) => `[${module}.${name}, ${generator.named(name, schema)}]`,
  );
  return generator.render(registrations);
}

/** The generated module's text, formatted as the repository's Prettier settings say. */
export async function renderFastParsers(): Promise<string> {
  const options = await prettier.resolveConfig(FAST_PARSE_FILE);
  return prettier.format(renderParsers(EXPORTS), { ...options, filepath: FAST_PARSE_FILE });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(FAST_PARSE_FILE, await renderFastParsers());
  console.log(`wrote ${path.relative(process.cwd(), FAST_PARSE_FILE)}`);
}
