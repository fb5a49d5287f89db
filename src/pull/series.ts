/** A document (series) of a policy id: the id without its date (`cms-lcd/L33718`). */
export function seriesOf(policyId: string): string {
  return policyId.slice(0, Math.max(0, policyId.lastIndexOf("/")));
}

/** CMS's own version number of a document, from its page link (`ver=`, `ncdver=`). */
export function cmsVersionOf(fileUrl: string): string | null {
  return /[?&](?:ncd)?ver=(\d+)/i.exec(fileUrl)?.[1] ?? null;
}
