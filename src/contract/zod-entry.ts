// The entry of dist/zod.cjs, the zod that the built CLI loads on first use. The build replaces
// this text with a re-export of just the names of zod that src/ reads as values, so that
// esbuild keeps only those parts of zod (build/plugins.ts, lazyZod); as written, all of zod.
export * from "zod";
