/**
 * Why a database call failed, in one line a person can act on. Drizzle wraps the driver's error as
 * «Failed query: <the whole statement> params: …» and keeps PostgreSQL's own words («permission denied for
 * schema public», «relation "x" already exists», «connect ECONNREFUSED 127.0.0.1:5999») in `cause`; an
 * AggregateError (a host with several addresses) keeps them in `errors`. Passwords in connection strings
 * are masked.
 */
export function dbErrorReason(error: unknown): string {
  const seen = new Set<unknown>();
  let current: unknown = error;
  let reason = "";
  // The innermost error that says something: the driver's, below drizzle's wrapper.
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const own = current as Error & { code?: string; errors?: unknown[] };
    const message =
      own.message?.trim() || own.errors?.map((e) => (e instanceof Error ? e.message : String(e))).join("; ") || own.code || "";
    if (message && !message.startsWith("Failed query:")) reason = message;
    current = own.cause;
  }
  if (!reason) reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  return reason.split("\n")[0].replace(/(postgres(?:ql)?:\/\/[^:/@\s]+:)[^@\s]+@/g, "$1***@");
}
