/**
 * The one CSV writer of the product: UTF-8 with BOM for Excel, CRLF, every cell neutralised against formula
 * injection wherever a spreadsheet could start a cell inside it, and quoted when it holds a separator of
 * either kind, so Excel in Spanish (';') cannot split a text into cells that evaluate
 * (docs/decisions/020-csv-formulas-after-separators.md).
 *
 * csvStream() is the writer: it takes rows (an array, an iterable or an async iterable of rows or of row
 * batches) and gives a Readable that emits the BOM and the header at once, then one chunk per batch of rows,
 * pulling the next batch only when the consumer asks (back-pressure). toCsv() is the same code collected
 * into a string, for small bodies (tests, e-mail attachments of a known size). csvLineStream() sends lines
 * PostgreSQL wrote itself (the activity CSVs; csvCellSql is csvCell in SQL).
 * Formats (docs/decisions/008-csv-streaming.md): dates YYYY-MM-DD, times HH:MM, hours with a dot and two
 * decimals ("1.50", written by the activity line's SQL), booleans Sí/No.
 */
import { Readable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => unknown;
}

export const BOM = "\uFEFF";
const NEWLINE = "\r\n";
/** Rows buffered into one chunk when the source yields single rows. */
const CHUNK_ROWS = 500;

type RowSource<Row> = Iterable<Row | Row[]> | AsyncIterable<Row | Row[]>;

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  // A joined list is one cell: neutralise() reaches each item after its ', ', so splitting the cell into
  // columns in Excel cannot turn an item into a formula.
  if (Array.isArray(value)) return value.map((item) => formatCell(item)).join(", ");
  if (typeof value === "boolean") return value ? "Sí" : "No";
  return String(value);
}

/**
 * Where a spreadsheet could start a cell inside a text: its start, and after a separator of either kind
 * (',' for LibreOffice and Excel in English, ';' for Excel in Spanish), a tab (pasting, tab-separated
 * reading) or a line break (a reader that ignores quotes), spaces and double quotes allowed (an import that
 * trims spaces; a reader that drops or mangles quotes).
 * There a formula's first character (= + - @, or tab or CR, which some spreadsheets skip) gets one
 * apostrophe before it, and before any apostrophes already there, so restoreNeutralised() gives back the
 * very text. csvCellSql runs the same expressions in PostgreSQL, which reads these lookarounds and escapes
 * as JS does (tests/api/report-csv-sql.test.ts).
 */
const FORMULA_PART = /(?<=(?:^|[,;\t\r\n])[ "]*)(?='*[=+\-@\t\r])/g;
const HAS_FORMULA_PART = /(?:^|[,;\t\r\n])[ "]*'*[=+\-@\t\r]/;
// The apostrophe first: a lookbehind at the start is tried at every position and scans back over every run of
// quotes, which made a cell of a thousand quotes cost a million steps (a second for a 6 MB upload).
const WRITER_APOSTROPHE = /'(?<=(?:^|[,;\t\r\n])[ "]*')(?='*[=+\-@\t\r])/g;

/** The text with an apostrophe before every part a spreadsheet could read as a formula. */
export const neutralise = (text: string) => (HAS_FORMULA_PART.test(text) ? text.replace(FORMULA_PART, "'") : text);
/** neutralise() undone: the CSV import reads a file SIA wrote back to the very texts. */
export const restoreNeutralised = (text: string) => (text.includes("'") ? text.replace(WRITER_APOSTROPHE, "") : text);

/**
 * A cell needs quotes when it holds a quote, a separator of either kind, a tab or a line break, the BOM, a
 * space at either end, or starts like a formula (any formula part after the start follows a separator, so
 * this also says whether neutralise() has anything to do). Plain text, the common case, is this one test.
 */
const NEEDS_QUOTES = /[",;\t\r\n\uFEFF]|^'*[=+\-@]|^ | $/;

/**
 * One cell: plain text as it is; anything else neutralised, its quotes doubled, and quoted. Written by hand
 * rather than with papaparse's unparse (no array of arrays per batch): the million-row report's hot path.
 */
export function csvCell(text: string): string {
  if (!NEEDS_QUOTES.test(text)) return text;
  return `"${neutralise(text).replace(/"/g, '""')}"`;
}

/** The BOM and the header line (CRLF included). */
export const csvHeader = (headers: readonly string[]) => BOM + headers.map((h) => csvCell(h)).join(",") + NEWLINE;
const headerLine = <Row>(columns: CsvColumn<Row>[]) => csvHeader(columns.map((c) => c.header));

const NEEDS_QUOTES_SQL = sql.raw(String.raw`'[",;\t\r\n\uFEFF]|^''*[-=+@]|^ | $'`);
const FORMULA_PART_SQL = sql.raw(String.raw`'(?<=(?:^|[,;\t\r\n])[ "]*)(?=''*[-=+@\t\r])'`);
const HAS_FORMULA_PART_SQL = sql.raw(String.raw`'(?:^|[,;\t\r\n])[ "]*''*[-=+@\t\r]'`);
/**
 * csvCell(formatCell(text)) computed by PostgreSQL for a text expression (null: an empty cell), for the
 * lines the database writes itself (server/modules/reports/report.ts): the same quoting test, apostrophes
 * and quote doubling (PostgreSQL's regular expressions read the escapes; `$` is the text's end). The
 * replacement runs only where there is a formula part: on a million quoted descriptions regexp_replace
 * alone took three times as long.
 */
export const csvCellSql = (text: SQL) => sql`(case when ${text} is null then ''
  when ${text} !~ ${NEEDS_QUOTES_SQL} then ${text}
  when ${text} !~ ${HAS_FORMULA_PART_SQL} then '"' || replace(${text}, '"', '""') || '"'
  else '"' || replace(regexp_replace(${text}, ${FORMULA_PART_SQL}, '''', 'g'), '"', '""') || '"' end)`;

function rowLines<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  let out = "";
  for (const row of rows) {
    let line = "";
    for (let i = 0; i < columns.length; i++) {
      if (i) line += ",";
      line += csvCell(formatCell(columns[i].value(row)));
    }
    out += line + NEWLINE;
  }
  return out;
}

/** Chunks of CSV text: header first, then one chunk per batch of rows. */
async function* csvChunks<Row>(columns: CsvColumn<Row>[], source: RowSource<Row>): AsyncGenerator<string> {
  yield headerLine(columns);
  let pending: Row[] = [];
  for await (const item of source as AsyncIterable<Row | Row[]>) {
    if (Array.isArray(item)) {
      if (pending.length) {
        yield rowLines(columns, pending);
        pending = [];
      }
      if (item.length) yield rowLines(columns, item);
    } else {
      pending.push(item);
      if (pending.length >= CHUNK_ROWS) {
        yield rowLines(columns, pending);
        pending = [];
      }
    }
  }
  if (pending.length) yield rowLines(columns, pending);
}

/**
 * The streaming writer. A source yields rows or arrays of rows (a batch is written as one chunk); a row that
 * is itself an array must be given in batches.
 */
export function csvStream<Row>(columns: CsvColumn<Row>[], source: RowSource<Row>): Readable {
  return Readable.from(csvChunks(columns, source), { objectMode: false, highWaterMark: 64 * 1024 });
}

/**
 * The writer for lines the database wrote itself (each with its CRLF): the BOM and the header at once, then
 * each text as it comes, pulled only when the consumer asks (back-pressure).
 */
export function csvLineStream(headers: readonly string[], lines: AsyncIterable<string | Buffer>): Readable {
  async function* chunks() {
    yield csvHeader(headers);
    yield* lines;
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}

/** The whole CSV as a string (small bodies only): the same writer, collected. */
export function toCsv<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  let out = headerLine(columns);
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) out += rowLines(columns, rows.slice(i, i + CHUNK_ROWS));
  return out;
}

export function csvFilename(base: string) {
  return `attachment; filename="${base.replace(/[^A-Za-z0-9_.-]/g, "_")}"`;
}
