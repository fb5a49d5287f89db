/**
 * Whether an id has an empty, `.` or `..` segment. URLs resolve dot segments (percent-encoded
 * too, as `%2E`), so `policy ../payers` would ask for `/v1/payers`, and servers differ on
 * empty ones (`updates/` is the updates endpoint to some): such an id cannot be sent, nor
 * stored. Real ids are `<source>/<key>/<date>`.
 */
export function hasBadSegment(policyId: string): boolean {
  return policyId.split("/").some((s) => s === "" || s === "." || s === "..");
}
