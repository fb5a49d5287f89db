/** Whether a URL hostname is loopback (127.0.0.0/8, ::1, localhost): plain http is fine there. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host === "::1") return true;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m !== null && m[1] === "127" && m.slice(2).every((n) => Number(n) <= 255);
}
