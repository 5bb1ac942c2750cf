/**
 * Races: fire N requests at the same moment and tally the answers. Each request is started before any
 * is awaited, so on PostgreSQL they really compete for connections and rows (on PGlite they interleave
 * at every await). Use it for any "check, then act" a parallel burst could slip through.
 */
export async function burst<T extends { status: number }>(n: number, request: (i: number) => Promise<T>) {
  const results = await Promise.all(Array.from({ length: n }, (_, i) => request(i)));
  const byStatus: Record<number, number> = {};
  for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  return { results, byStatus };
}
