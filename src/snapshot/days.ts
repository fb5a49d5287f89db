/** A day number for an open end (`effective_to_date` null): after every real day. */
export const OPEN_END = 2 ** 31 - 1;

/** `YYYY-MM-DD` as days since 1970-01-01 (the same order as the strings, as numbers). */
export function dayNumber(date: string): number {
  return (
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) /
    86_400_000
  );
}

/** The `YYYY-MM-DD` of a day number (dayNumber's inverse for the years 2000 to 9999). */
export function dateOfDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
