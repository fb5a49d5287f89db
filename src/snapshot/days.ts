/** A day number for an open end (`effective_to_date` null): after every real day. */
export const OPEN_END = 2 ** 31 - 1;

/**
 * `YYYY-MM-DD` as days since 1970-01-01 (the same order as the strings, as numbers), for every
 * year 0000 to 9999: the days-from-civil algorithm of H. Hinnant (Date.UTC reads a year below
 * 100 as 19xx). A day past its month's end (02-30) counts on into the next, as Date.UTC did.
 */
export function dayNumber(date: string): number {
  const month = Number(date.slice(5, 7));
  const year = Number(date.slice(0, 4)) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + Number(date.slice(8, 10)) - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * The `YYYY-MM-DD` of a day number: dayNumber's inverse for the years 2000 to 9999. Computed
 * (the civil-from-days algorithm of H. Hinnant), not through Date: a filter's prefetch makes
 * tens of thousands of them.
 */
export function dateOfDay(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}
