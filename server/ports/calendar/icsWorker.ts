/**
 * The worker that reads uploaded files (./icsPool.ts): decodes the bytes (BOM, UTF-8, else
 * Windows-1252), then either reads and expands a calendar, answering JSON no larger than the pool allows,
 * or reads a CSV's records within the limits the job carries (server/ports/text/csvRecords.ts).
 * Whatever the file does here — a rule ical.js searches forever, a million occurrences, ten million blank
 * lines — the server's event loop keeps answering, and the pool terminates this thread when its time is up.
 */
import fs from "node:fs";
import { parentPort } from "node:worker_threads";
import { importMessages } from "../../../src/core/messages";
import { type CsvLimits, type CsvRecords, delimiterOf, readCsvRecords } from "../text/csvRecords";
import { decodeText } from "../text/decode";
import { ICS_LIMITS, IcsError, readIcs } from "./reader";

export interface IcsJob {
  kind?: "ics";
  id: number;
  bytes: Uint8Array;
  start: number;
  end: number;
  maxAnswerBytes: number;
  limits?: Partial<typeof ICS_LIMITS>;
}
export interface CsvJob {
  kind: "csv";
  id: number;
  bytes: Uint8Array;
  /** The separators the file may use; the header line picks one. */
  delimiters: readonly string[];
  limits: CsvLimits;
}
export type IcsAnswer = { id: number; ok: true; json: string } | { id: number; ok: false; message: string };
export type CsvAnswer = { id: number; ok: true; csv: CsvRecords } | { id: number; ok: false; message: string };

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

export function answerCsv(job: CsvJob): CsvAnswer {
  try {
    const text = decodeText(job.bytes).text.replace(/^\uFEFF/, "");
    return { id: job.id, ok: true, csv: readCsvRecords(text, delimiterOf(text, job.delimiters), job.limits) };
  } catch {
    return { id: job.id, ok: false, message: importMessages.csvUnreadable };
  }
}

parentPort?.on("message", (job: IcsJob | CsvJob) => {
  parentPort?.postMessage(job.kind === "csv" ? answerCsv(job) : answer(job));
});
/** This thread's /proc stat file (Linux): the pool reads the CPU time the thread has had from it. */
function threadStat(): string | undefined {
  try {
    return `/proc/${fs.readlinkSync("/proc/thread-self")}/stat`;
  } catch {
    return undefined;
  }
}

// Loaded (ical.js and all): the pool starts a read's clock only from here.
parentPort?.postMessage({ ready: true, stat: threadStat() });
