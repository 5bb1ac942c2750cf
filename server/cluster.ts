/**
 * Every core serves (docs/decisions/045-cluster-and-session-cache.md): on PostgreSQL the server runs as
 * WEB_CONCURRENCY processes (by default one per core but one) sharing one port through Node's cluster, the primary
 * handing out connections in turn. The primary only prepares the database (migrations, reference and demo
 * data) before the first worker starts, forks the workers and starts a new one when one dies; it opens no
 * HTTP port of its own. The workers are the server as one process would be (stateless: everything shared
 * lives in PostgreSQL), and only the first runs the scheduled jobs (the job runner is safe across processes
 * anyway: advisory lock and one run per period). The embedded database is one process's: one process there.
 */
import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import type { Config } from "./config";

/** Set in a worker's environment: the database is prepared, serve. */
export const WORKER_ENV = "SIA_CLUSTER_WORKER";
/** Set to "1" in the one worker that runs the scheduled jobs. */
export const JOBS_WORKER_ENV = "SIA_JOBS_WORKER";
/** A worker that dies sooner than this after its start is not restarted forever: the server stops. */
const STABLE_AFTER_MS = 10_000;
const RESTART_DELAY_MS = 1000;
/** How long the workers have to close after SIGTERM before they are killed. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * How many server processes: WEB_CONCURRENCY, else on PostgreSQL one per core but one, which is left to the
 * database and the rest of the machine (on two cores, two processes answered fewer requests than one:
 * bench/NOTES.md); one on the embedded database.
 */
export function processCount(config: Config): number {
  if (!config.DATABASE_URL) return 1;
  return config.WEB_CONCURRENCY ?? Math.max(1, os.availableParallelism() - 1);
}

/** This process is a worker forked by runPrimary. */
export const isClusterWorker = () => cluster.isWorker && process.env[WORKER_ENV] === "1";

/** This process runs the scheduled jobs: a lone server, or the cluster's jobs worker. */
export const runsJobs = () => !isClusterWorker() || process.env[JOBS_WORKER_ENV] === "1";

/**
 * The primary: forks `count` workers running `entry` (this same program) and keeps them running; answers
 * once the first one listens, with its address.
 */
export function runPrimary(entry: string, count: number): Promise<{ port: number }> {
  cluster.setupPrimary({ exec: entry });
  let stopping = false;
  let firstListen: ((address: { port: number }) => void) | undefined;
  let failedStart: ((error: Error) => void) | undefined;
  const listening = new Promise<{ port: number }>((resolve, reject) => {
    firstListen = resolve;
    failedStart = reject;
  });

  const fork = (jobs: boolean) => {
    const startedAt = Date.now();
    const worker: Worker = cluster.fork({ [WORKER_ENV]: "1", [JOBS_WORKER_ENV]: jobs ? "1" : "0" });
    worker.once("listening", (address) => {
      firstListen?.({ port: address.port });
      firstListen = undefined;
      failedStart = undefined;
    });
    worker.once("exit", (code, signal) => {
      if (stopping) return;
      const cause = signal ?? `código ${code}`;
      if (Date.now() - startedAt < STABLE_AFTER_MS && firstListen) {
        // The first workers cannot start (a port in use, a wrong configuration): stop instead of looping.
        failedStart?.(new Error(`un proceso del servidor terminó al arrancar (${cause})`));
        return;
      }
      console.error(`Un proceso del servidor terminó (${cause}); se inicia otro.`);
      setTimeout(() => {
        if (!stopping) fork(jobs);
      }, RESTART_DELAY_MS).unref();
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    if (workers.length === 0) process.exit(0);
    let left = workers.length;
    for (const worker of workers) {
      worker.once("exit", () => {
        left -= 1;
        if (left === 0) process.exit(0);
      });
      worker.process.kill(signal);
    }
    setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill("SIGKILL");
      process.exit(0);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));

  for (let i = 0; i < count; i++) fork(i === 0);
  return listening.catch((error) => {
    stop("SIGTERM");
    throw error;
  });
}
