export * from "./enums.js";
export * from "./requests.js";
export * from "./responses.js";
export * from "./validation.js";
// Registers the build-time parsers that safeParseBounded tries first (see ./fast-parse.ts).
import "./fast-parse.generated.js";
