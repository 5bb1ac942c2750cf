/**
 * Uploaded calendars and CSVs are read in worker threads, never on the event loop
 * (docs/decisions/019-ics-calendar-reader.md, 038-fair-share.md):
 * - at most `size` workers (the machine's cores, 2 by default) read at once; one is kept warm, so a normal
 *   import does not pay a thread's start;
 * - each read has a budget of the reading thread's own CPU time (Linux: /proc; elsewhere wall-clock time):
 *   past it the worker is terminated (ical.js can spin inside one call on a rule like
 *   BYMONTH=2;BYMONTHDAY=30, and only termination stops that) and replaced. CPU time, so that a real file
 *   on a busy server is not taken for a hostile one (the same read takes three times as long in wall-clock
 *   time when other work holds the cores); a read is still stopped after WALL_FACTOR times its budget;
 * - a bounded queue, in length and in waiting time: beyond either an upload is answered «intente de nuevo»,
 *   so ten hostile files cannot keep everyone else's imports waiting for long;
 * - a thread's heap is bounded (resourceLimits): a file that would need more ends that thread, not the server;
 * - every refusal is an IcsError (a calendar) or a CsvReadError (a CSV) with its Spanish message (the route
 *   answers a 422, or a 503 when the pool is busy).
 *
 * The worker's entry is ./icsWorker.ts under tsx (vitest, npm run dev) and build/server/ics-worker.js in
 * the compiled server (scripts/start.mjs builds it as a second entry point).
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { importMessages } from "../../../src/core/messages";
import { type CsvLimits, CsvReadError, type CsvRecords } from "../text/csvRecords";
import type { CsvAnswer, CsvJob, IcsAnswer, IcsJob } from "./icsWorker";
import { type CalendarInstance, type CalendarRange, ICS_LIMITS, IcsError, type IcsLimits, type IcsRead } from "./reader";

export interface IcsPoolOptions {
  /** Workers reading at once. */
  size: number;
  /** Budget of one read, in ms of the reading thread's CPU time (wall-clock time where /proc is missing). */
  timeoutMs: number;
  /** Uploads waiting for a worker before «intente de nuevo». */
  maxQueue: number;
  /** How long an upload may wait for a worker before «intente de nuevo», in ms. */
  maxWaitMs: number;
  /** Largest answer (JSON characters) a worker may send. */
  maxAnswerBytes: number;
  /** Largest heap of one thread, in MB: past it the thread ends and its upload is refused. */
  maxHeapMb: number;
  limits: IcsLimits;
}

export const ICS_POOL_DEFAULTS: IcsPoolOptions = {
  size: 2,
  timeoutMs: 2_000,
  maxQueue: 16,
  maxWaitMs: 3_000,
  maxAnswerBytes: 4 * 1024 * 1024,
  // A 10 MB upload decodes to at most 20 MB of text; ical.js and the records need a few times that.
  maxHeapMb: 256,
  limits: ICS_LIMITS,
};

/** How to start the worker here: the compiled file beside the bundle, else the TypeScript through tsx. */
function workerSource(): { file: URL | string; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) {
    for (const candidate of ["./ics-worker.js", "../ics-worker.js"]) {
      const url = new URL(candidate, here);
      if (fs.existsSync(fileURLToPath(url))) return { file: url, eval: false };
    }
  }
  const entry = new URL("./icsWorker.ts", here).href;
  // A tiny CommonJS bootstrap registers tsx in the thread, then loads the TypeScript entry.
  return {
    file: `import("tsx/esm/api").then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`,
    eval: true,
  };
}

/** What a refusal says, per kind of file. */
interface Refusals {
  busy: string;
  unreadable: string;
  tooSlow: (seconds: number) => string;
  error: (message: string) => Error;
}
const ICS_REFUSALS: Refusals = {
  busy: importMessages.icsBusy,
  unreadable: importMessages.icsUnreadable,
  tooSlow: importMessages.icsTooSlow,
  error: (message) => new IcsError(message),
};
const CSV_REFUSALS: Refusals = {
  busy: importMessages.csvBusy,
  unreadable: importMessages.csvUnreadable,
  tooSlow: importMessages.csvTooSlow,
  error: (message) => new CsvReadError(message),
};

interface Pending {
  job: IcsJob | CsvJob;
  refusals: Refusals;
  wait?: NodeJS.Timeout;
  /** The worker's answer: the caller's value, or the error to reject with. */
  accept: (message: IcsAnswer | CsvAnswer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Loaded: a thread's start (and tsx's, in tests) is not counted in a read's budget. */
  ready: boolean;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
  /** The thread's /proc stat file, when the system has one. */
  stat?: string;
}

/** However little CPU a read gets, it is stopped after this many times its budget in wall-clock time. */
const WALL_FACTOR = 10;
/** The kernel's clock tick (USER_HZ), in ms: /proc counts CPU time in ticks of 1/100 s on Linux. */
const TICK_MS = 10;

/** CPU time (user + system) a thread has used, in ms, from its /proc stat file; undefined if unreadable. */
function threadCpuMs(stat: string | undefined): number | undefined {
  if (!stat) return undefined;
  try {
    const fields = fs.readFileSync(stat, "utf8").split(") ")[1]?.split(" ");
    const ticks = Number(fields?.[11]) + Number(fields?.[12]);
    return Number.isFinite(ticks) ? ticks * TICK_MS : undefined;
  } catch {
    return undefined;
  }
}

export class IcsPool {
  private readonly options: IcsPoolOptions;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers terminated for passing the budget (for tests and the bench). */
  terminated = 0;

  constructor(options: Partial<IcsPoolOptions> = {}) {
    this.options = { ...ICS_POOL_DEFAULTS, ...options };
  }

  /** Starts one worker ahead of the first upload. */
  warm(): void {
    if (!this.slots.length && !this.closed) this.spawn();
  }

  read(bytes: Uint8Array, range: CalendarRange): Promise<IcsRead> {
    return this.submit<IcsRead>(
      (id) => ({
        id,
        bytes,
        start: range.start.getTime(),
        end: range.end.getTime(),
        maxAnswerBytes: this.options.maxAnswerBytes,
        limits: this.options.limits,
      }),
      ICS_REFUSALS,
      (message) => {
        if (!message.ok) throw new IcsError(message.message);
        if (!("json" in message)) throw new IcsError(importMessages.icsUnreadable);
        const read = JSON.parse(message.json) as { instances: Array<Record<string, unknown>>; warnings: string[] };
        return {
          warnings: read.warnings,
          instances: read.instances.map(
            (i) => ({ ...i, start: new Date(i.start as string), end: new Date(i.end as string) }) as CalendarInstance,
          ),
        };
      },
    );
  }

  /** A CSV's records within `limits` (server/ports/text/csvRecords.ts), read by a worker. */
  readCsv(bytes: Uint8Array, delimiters: readonly string[], limits: CsvLimits): Promise<CsvRecords> {
    return this.submit<CsvRecords>(
      (id) => ({ kind: "csv", id, bytes, delimiters, limits }),
      CSV_REFUSALS,
      (message) => {
        if (!message.ok) throw new CsvReadError(message.message);
        if (!("csv" in message)) throw new CsvReadError(importMessages.csvUnreadable);
        return message.csv;
      },
    );
  }

  private submit<T>(
    makeJob: (id: number) => IcsJob | CsvJob,
    refusals: Refusals,
    accept: (message: IcsAnswer | CsvAnswer) => T,
  ): Promise<T> {
    if (this.closed) return Promise.reject(refusals.error(refusals.busy));
    const idle = this.slots.some((s) => !s.busy) || this.slots.length < this.options.size;
    if (!idle && this.queue.length >= this.options.maxQueue) return Promise.reject(refusals.error(refusals.busy));
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        job: makeJob(this.nextId++),
        refusals,
        reject,
        accept: (message) => {
          try {
            resolve(accept(message));
          } catch (error) {
            reject(error as Error);
          }
        },
      };
      let extensions = 0;
      const expire = () => {
        const index = this.queue.indexOf(pending);
        if (index < 0) return;
        // Waiting for a thread that is still starting (after a termination) is not the queue's fault.
        if (this.slots.some((s) => !s.ready) && extensions++ < 1) {
          pending.wait = setTimeout(expire, this.options.maxWaitMs);
          pending.wait.unref();
          return;
        }
        this.queue.splice(index, 1);
        reject(refusals.error(refusals.busy));
      };
      pending.wait = setTimeout(expire, this.options.maxWaitMs);
      pending.wait.unref();
      this.queue.push(pending);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(pending.refusals.error(pending.refusals.busy));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot)));
  }

  private spawn(): Slot {
    const source = workerSource();
    const worker = new Worker(source.file, {
      eval: source.eval,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, busy: null, timer: null };
    worker.on("message", (message: IcsAnswer | CsvAnswer | { ready: true; stat?: string }) => {
      if ("ready" in message) {
        slot.ready = true;
        slot.stat = message.stat;
        this.dispatch();
      } else this.settle(slot, message);
    });
    worker.on("error", () => this.fail(slot, (r) => r.unreadable));
    worker.on("exit", () => {
      if (this.slots.includes(slot)) this.fail(slot, (r) => r.unreadable);
    });
    this.slots.push(slot);
    return slot;
  }

  private dispatch() {
    while (this.queue.length) {
      const slot = this.slots.find((s) => s.ready && !s.busy);
      if (!slot) {
        // A starting thread takes the next upload when it is ready.
        const starting = this.slots.filter((s) => !s.ready).length;
        if (this.slots.length < this.options.size && starting < this.queue.length) this.spawn();
        return;
      }
      const pending = this.queue.shift() as Pending;
      if (pending.wait) clearTimeout(pending.wait);
      slot.busy = pending;
      // The job's bytes are copied to the worker (the request keeps its buffer).
      slot.worker.postMessage(pending.job);
      this.startClock(slot);
    }
  }

  /**
   * Terminates the read once its thread has used its budget of CPU time (checked when that much wall-clock
   * time has passed, then again for what is left), or WALL_FACTOR times that in wall-clock time.
   */
  private startClock(slot: Slot) {
    const budget = this.options.timeoutMs;
    const startedAt = Date.now();
    const cpuAtStart = threadCpuMs(slot.stat);
    const expire = () => {
      const cpu = threadCpuMs(slot.stat);
      const used = cpu === undefined || cpuAtStart === undefined ? budget : cpu - cpuAtStart;
      if (used < budget && Date.now() - startedAt < budget * WALL_FACTOR) {
        slot.timer = setTimeout(expire, Math.max(TICK_MS * 5, budget - used));
        return;
      }
      this.terminated++;
      this.fail(slot, (r) => r.tooSlow(Math.round(budget / 100) / 10));
    };
    slot.timer = setTimeout(expire, budget);
  }

  private settle(slot: Slot, message: IcsAnswer | CsvAnswer) {
    const pending = slot.busy;
    if (!pending || pending.job.id !== message.id) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.busy = null;
    slot.timer = null;
    pending.accept(message);
    this.dispatch();
  }

  /** The worker failed or ran out of time: its upload is refused, the thread replaced. */
  private fail(slot: Slot, messageOf: (refusals: Refusals) => string) {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    const pending = slot.busy;
    slot.busy = null;
    void this.stop(slot);
    if (pending) pending.reject(pending.refusals.error(messageOf(pending.refusals)));
    if (this.closed) return;
    if (!slot.ready) {
      // The thread could not even start: refuse what waits rather than start threads in a loop.
      for (const waiting of this.queue.splice(0)) waiting.reject(waiting.refusals.error(waiting.refusals.unreadable));
      return;
    }
    if (!this.slots.length) this.spawn();
    this.dispatch();
  }

  private async stop(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer);
    try {
      await slot.worker.terminate();
    } catch {
      // already gone
    }
  }
}

let shared: IcsPool | null = null;
/** The process's pool (one per process: the cores are the process's, not one app's). */
export function icsPool(): IcsPool {
  shared ??= new IcsPool();
  return shared;
}
