/**
 * The one reader of uploaded CSVs (the week's activities, the holidays): RFC 4180 records, bounded by what
 * the file holds and not only by its size. It stops at the first record, column or cell past its limits,
 * so a file of ten million blank lines or a header of ten million commas costs no more than reading up
 * to the limit, and the records kept never exceed what the limits allow. It runs in the reader pool's
 * threads (server/ports/calendar/icsPool.ts), never on the event loop.
 */

/** A CSV the reader pool refused or could not read, with its Spanish message. */
export class CsvReadError extends Error {}

export interface CsvLimits {
  /** Records in the whole file, the header and blank lines included. */
  maxRecords: number;
  /** Non-blank records after the header. */
  maxRows: number;
  /** Cells in one record. */
  maxColumns: number;
  /** Characters in one cell. */
  maxCellChars: number;
}

/** Where the reader stopped, and why (records are 1-based, as a spreadsheet numbers its rows). */
export type CsvStop =
  | { kind: "records"; max: number }
  | { kind: "rows"; max: number }
  | { kind: "columns"; record: number; max: number }
  | { kind: "cell"; record: number; column: number; max: number };

export interface CsvRecords {
  /** Each record's cells, up to the limits. */
  records: string[][];
  /** The record where a quoted cell opens and never closes. */
  openQuote?: number;
  /** Set when a limit stopped the reading: the file is refused. */
  stop?: CsvStop;
}

/** How much of the header line decides the separator: a header of megabytes is refused by its columns anyway. */
const HEADER_SAMPLE = 64 * 1024;

/** The separator is the candidate the header line uses most (the first one when none appears). */
export function delimiterOf(text: string, candidates: readonly string[]): string {
  const sample = text.slice(0, HEADER_SAMPLE);
  const end = sample.search(/[\r\n]/);
  const firstLine = end < 0 ? sample : sample.slice(0, end);
  let best = candidates[0] ?? ",";
  let most = 0;
  for (const candidate of candidates) {
    let found = 0;
    for (let at = firstLine.indexOf(candidate); at >= 0; at = firstLine.indexOf(candidate, at + 1)) found++;
    if (found > most) [best, most] = [candidate, found];
  }
  return best;
}

/**
 * RFC 4180 records (quotes doubled inside quoted cells; a quoted cell may hold separators and line breaks;
 * CRLF, LF or CR end a record; text after a closing quote stays in the cell, as spreadsheets read it).
 */
export function readCsvRecords(text: string, delimiter: string, limits: CsvLimits): CsvRecords {
  const records: string[][] = [];
  const plain = new RegExp(`[${delimiter === "\t" ? "\\t" : delimiter}\r\n]`, "g");
  let cells: string[] = [];
  let cell = "";
  let nonBlank = 0;
  let i = 0;
  let atCellStart = true;
  const n = text.length;
  const tooLong = (): CsvRecords => ({
    records,
    stop: { kind: "cell", record: records.length + 1, column: cells.length + 1, max: limits.maxCellChars },
  });
  /** The record is complete: kept, or the reading stops at a limit. */
  const endRecord = (): CsvRecords | null => {
    records.push(cells);
    if (records.length > 1 && cells.some((c) => c.trim())) nonBlank++;
    cells = [];
    if (nonBlank > limits.maxRows) return { records, stop: { kind: "rows", max: limits.maxRows } };
    if (records.length > limits.maxRecords) return { records, stop: { kind: "records", max: limits.maxRecords } };
    return null;
  };
  const endCell = (): CsvRecords | null => {
    cells.push(cell);
    cell = "";
    if (cells.length > limits.maxColumns) {
      return { records, stop: { kind: "columns", record: records.length + 1, max: limits.maxColumns } };
    }
    return null;
  };
  while (i < n) {
    if (atCellStart && text[i] === '"') {
      // The closing quote is the first one not doubled; the cell is copied once, its doubled quotes halved.
      let j = i + 1;
      let doubled = 0;
      let quote: number;
      for (;;) {
        quote = text.indexOf('"', j);
        if (quote < 0) return { records, openQuote: records.length + 1 };
        // Checked before the text is copied: a quoted cell of megabytes is refused, never built.
        if (cell.length + (quote - i - 1) - doubled > limits.maxCellChars) return tooLong();
        if (text.charCodeAt(quote + 1) !== 34) break;
        doubled++;
        j = quote + 2;
      }
      const inside = text.slice(i + 1, quote);
      cell += doubled ? inside.replaceAll('""', '"') : inside;
      i = quote + 1;
      atCellStart = false;
      continue;
    }
    atCellStart = false;
    plain.lastIndex = i;
    const stop = plain.exec(text);
    const end = stop ? stop.index : n;
    if (cell.length + (end - i) > limits.maxCellChars) return tooLong();
    cell += text.slice(i, end);
    if (!stop) {
      i = n;
      break;
    }
    const full = endCell();
    if (full) return full;
    atCellStart = true;
    i = end + 1;
    if (stop[0] !== delimiter) {
      if (stop[0] === "\r" && text[i] === "\n") i++;
      const limited = endRecord();
      if (limited) return limited;
    }
  }
  if (cells.length || cell || !atCellStart) {
    const full = endCell();
    if (full) return full;
    const limited = endRecord();
    if (limited) return limited;
  }
  return { records };
}
