/**
 * The worker that reads an uploaded .ics (./icsPool.ts): decodes the bytes (BOM, UTF-8, else
 * Windows-1252), reads and expands the calendar, and answers JSON no larger than the pool allows.
 * Whatever the file does here — a rule ical.js searches forever, a million occurrences — the server's
 * event loop keeps answering, and the pool terminates this thread when its time is up.
 */
import { parentPort } from "node:worker_threads";
import { importMessages } from "../../../src/core/messages";
import { decodeText } from "../text/decode";
import { ICS_LIMITS, IcsError, readIcs } from "./reader";

export interface IcsJob {
  id: number;
  bytes: Uint8Array;
  start: number;
  end: number;
  maxAnswerBytes: number;
  limits?: Partial<typeof ICS_LIMITS>;
}
export type IcsAnswer = { id: number; ok: true; json: string } | { id: number; ok: false; message: string };

export function answer(job: IcsJob): IcsAnswer {
  try {
    const { text } = decodeText(job.bytes);
    const read = readIcs(text, { start: new Date(job.start), end: new Date(job.end) }, { ...ICS_LIMITS, ...job.limits });
    const json = JSON.stringify(read);
    if (json.length > job.maxAnswerBytes) return { id: job.id, ok: false, message: importMessages.icsAnswerTooBig };
    return { id: job.id, ok: true, json };
  } catch (error) {
    if (error instanceof IcsError) return { id: job.id, ok: false, message: error.message };
    // Anything ical.js throws on a broken file is the file's problem, never a 500.
    return { id: job.id, ok: false, message: importMessages.icsUnreadable };
  }
}

parentPort?.on("message", (job: IcsJob) => {
  parentPort?.postMessage(answer(job));
});
// Loaded (ical.js and all): the pool starts a read's clock only from here.
parentPort?.postMessage({ ready: true });
