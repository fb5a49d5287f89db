import { describe, expect, it } from "vitest";
import { dateOfDay, dayNumber } from "../../../src/snapshot/days.js";

describe("dateOfDay: the date string of a day number (years 2000 to 9999)", () => {
  it("is dayNumber's inverse on every day of 2000 to 2200 and on days up to 9999-12-31", () => {
    const bad: string[] = [];
    const check = (day: number) => {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      if (dateOfDay(day) !== iso || dayNumber(iso) !== day) bad.push(`${day}: ${dateOfDay(day)}`);
    };
    for (let day = dayNumber("2000-01-01"); day <= dayNumber("2200-12-31"); day++) check(day);
    for (let day = dayNumber("2201-01-01"); day <= dayNumber("9999-12-31"); day += 97) check(day);
    check(dayNumber("9999-12-31"));
    expect(bad).toEqual([]);
  });

  it.each(["2000-02-29", "2024-02-29", "2100-03-01", "2026-12-31", "9999-12-31"])("%s", (d) => {
    expect(dateOfDay(dayNumber(d))).toBe(d);
  });
});
