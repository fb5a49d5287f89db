/** A day number for an open end (`effective_to_date` null): after every real day. */
export const OPEN_END = 2 ** 31 - 1;

/** `YYYY-MM-DD` as days since 1970-01-01 (the same order as the strings, as numbers). */
export function dayNumber(date: string): number {
  return (
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) /
    86_400_000
  );
}
