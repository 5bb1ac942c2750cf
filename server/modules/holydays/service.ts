/**
 * Holiday import (SPEC §5, §8): a CSV with the columns fecha,nombre. All or nothing: every row is
 * checked first, and the valid file is written in one transaction; dates already registered are skipped.
 */
import type { Readable } from "node:stream";
import { and, asc, gte, lte } from "drizzle-orm";
import { importMessages, messages } from "../../../src/core/messages";
import { HOLYDAY_CSV_COLUMNS, HOLYDAY_IMPORT_MAX_ROWS, parseHolydayDate } from "../../../src/core/schemas/holyday";
import { businessToday } from "../../../src/core/week";
import type { Db } from "../../db/client";
import { holydays } from "../../db/schema";
import { type CsvColumn, csvStream } from "../../http/csv";
import { ValidationError } from "../../http/errors";
import { testPause } from "../../http/testPause";
import type { CsvLimits, CsvRecords } from "../../ports/text/csvRecords";

const NAME_MAX = 160;

/** The import format file: the columns and one example row, through the one CSV writer (streamed). */
export function holydaysFormat(): Readable {
  const columns: CsvColumn<{ fecha: string; nombre: string }>[] = [
    { header: HOLYDAY_CSV_COLUMNS[0], value: (r) => r.fecha },
    { header: HOLYDAY_CSV_COLUMNS[1], value: (r) => r.nombre },
  ];
  const nextYear = Number(businessToday().slice(0, 4)) + 1;
  return csvStream(columns, [{ fecha: `${nextYear}-01-01`, nombre: "Año Nuevo" }]);
}

export async function holydaysByDate(db: Db, { from, to }: { from: string; to: string }) {
  return db
    .select()
    .from(holydays)
    .where(and(gte(holydays.date, from), lte(holydays.date, to)))
    .orderBy(asc(holydays.date));
}

export interface ParsedHolyday {
  date: string;
  name: string | null;
}

/**
 * What the reader keeps of a holidays file before refusing it (server/ports/text/csvRecords.ts): the rows
 * an import takes, four times as many lines of any kind (blank ones included), a few columns beyond the two,
 * cells far longer than a name may be (a long name is still refused by its row, below).
 */
export const HOLYDAY_CSV_LIMITS: CsvLimits = {
  maxRows: HOLYDAY_IMPORT_MAX_ROWS,
  maxRecords: 4 * HOLYDAY_IMPORT_MAX_ROWS,
  maxColumns: 10,
  maxCellChars: 1000,
};
/** Spreadsheets in Spanish locales save with ';': the header line says which separator the file uses. */
export const HOLYDAY_CSV_DELIMITERS = [",", ";"] as const;

/** The file's rows (its records, read by the reader pool), or a 422 naming every bad row (fila = line of the file, the header being 1). */
export function parseHolydaysCsv(read: CsvRecords): ParsedHolyday[] {
  const { stop, openQuote } = read;
  if (stop) {
    if (stop.kind === "rows") throw ValidationError.base(messages.holydaysTooManyRows(HOLYDAY_IMPORT_MAX_ROWS));
    if (stop.kind === "records") throw ValidationError.base(importMessages.csvTooManyLines(stop.max));
    const problem =
      stop.kind === "columns"
        ? importMessages.csvTooManyColumns(stop.max)
        : importMessages.csvCellTooLong(importMessages.csvColumnLabel(stop.column), stop.max);
    throw ValidationError.base(importMessages.csvLine(stop.record, problem));
  }
  if (openQuote) throw ValidationError.base(importMessages.csvLine(openQuote, importMessages.csvOpenQuote));
  const rows = read.records;
  const header = (rows[0] ?? []).map((cell) =>
    String(cell ?? "")
      .trim()
      .toLowerCase(),
  );
  while (header.length > 2 && header[header.length - 1] === "") header.pop();
  if (header.length !== 2 || header[0] !== HOLYDAY_CSV_COLUMNS[0] || header[1] !== HOLYDAY_CSV_COLUMNS[1]) {
    throw ValidationError.base(messages.holydaysHeaderInvalid);
  }
  const invalidDates: string[] = [];
  const invalidNames: string[] = [];
  const out: ParsedHolyday[] = [];
  for (let i = 1; i < rows.length; i++) {
    const cells = (rows[i] ?? []).map((cell) => String(cell ?? "").trim());
    if (cells.every((cell) => cell === "")) continue;
    const line = i + 1;
    const rawDate = cells[0] ?? "";
    const date = parseHolydayDate(rawDate);
    if (!date) invalidDates.push(`fila ${line}: ${rawDate === "" ? "(vacía)" : rawDate.slice(0, 40)}`);
    const name = cells[1] ? cells[1] : null;
    if (name && name.length > NAME_MAX) invalidNames.push(`fila ${line}: el nombre ${messages.tooLong(NAME_MAX)}`);
    if (date) out.push({ date, name });
  }
  if (invalidDates.length || invalidNames.length) {
    const errors: Record<string, string[]> = {};
    if (invalidDates.length) errors.invalid_dates = invalidDates;
    if (invalidNames.length) errors.invalid_names = invalidNames;
    throw new ValidationError(errors);
  }
  if (out.length === 0) throw ValidationError.base(messages.holydaysFileEmpty);
  if (out.length > HOLYDAY_IMPORT_MAX_ROWS) throw ValidationError.base(messages.holydaysTooManyRows(HOLYDAY_IMPORT_MAX_ROWS));
  return out;
}

/** Writes the parsed rows in one transaction; dates already registered (or repeated) are skipped. */
export async function importHolydays(db: Db, rows: ParsedHolyday[]) {
  const unique = new Map<string, ParsedHolyday>();
  for (const row of rows) if (!unique.has(row.date)) unique.set(row.date, row);
  const inserted = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(holydays)
      .values([...unique.values()])
      .onConflictDoNothing({ target: holydays.date })
      .returning({ id: holydays.id });
    await testPause("holiday_import");
    return rows;
  });
  const imported = inserted.length;
  const skipped = rows.length - imported;
  if (imported === 0) return { imported: 0, skipped, warning: messages.holydaysAllRegistered };
  return { imported, skipped };
}
