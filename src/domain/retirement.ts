/** A retirement CMS has announced, in words: `retires 2027-01-31 (CMS future retire)`. */
export function describeRetirement(day: string): string {
  return `retires ${day} (CMS future retire)`;
}
