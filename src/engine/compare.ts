// The comparisons are rules everyone shares (domain/); the engine's importers keep finding them here.
export { compareCaseInsensitive, compareCodePoints } from "../domain/compare.js";
