export * from "./enums.js";
export * from "./requests.js";
export * from "./responses.js";
export * from "./validation.js";
