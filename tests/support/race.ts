/**
 * The race class of attack: N requests fired at the same moment, so every check-then-act on the server
 * (read a count, run argon2, write) overlaps with the others. Each request is built first, then all are
 * released together; the answers come back in firing order with a tally of their statuses.
 */
import type { FastifyInstance, InjectOptions } from "fastify";

export interface RaceAnswer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

/**
 * Fires `n` requests at once through the app. `during`, when given, runs beside them and may wait for the
 * k-th answer (`answered(k)`) to act in the middle of the burst: it resumes in the same turn of the event
 * loop as that answer (a promise, not a timer: an embedded database can answer a whole burst before any
 * timer fires).
 */
export async function race(
  app: FastifyInstance,
  n: number,
  request: (i: number) => InjectOptions,
  during?: (answered: (k: number) => Promise<void>) => Promise<void>,
): Promise<{ answers: RaceAnswer[]; tally: Record<number, number> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let count = 0;
  const waiters: Array<{ k: number; resolve: () => void }> = [];
  const answered = (k: number) => (count >= k ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ k, resolve })));
  const fired = Array.from({ length: n }, async (_, i) => {
    const options = request(i);
    await gate;
    const response = await app.inject(options);
    count += 1;
    for (const w of waiters.filter((x) => x.k <= count)) w.resolve();
    let body: any = null;
    try {
      body = response.json();
    } catch {
      body = response.body;
    }
    return { status: response.statusCode, body, headers: response.headers as Record<string, unknown> };
  });
  release();
  const [answers] = await Promise.all([Promise.all(fired), during?.(answered)]);
  const tally: Record<number, number> = {};
  for (const a of answers) tally[a.status] = (tally[a.status] ?? 0) + 1;
  return { answers, tally };
}
