/**
 * The one CSV writer of the product: UTF-8 with BOM for Excel, CRLF, every cell neutralised against formula
 * injection (papaparse's escapeFormulae prefixes a quote to cells starting with = + - @ tab or CR; a joined
 * list is one cell, escaped as a whole).
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
import Papa from "papaparse";

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => unknown;
}

export const BOM = "\uFEFF";
const FORMULA = /^[=+\-@\t\r]/;
const OPTIONS = { escapeFormulae: FORMULA, newline: "\r\n" } as const;
/** Rows buffered into one chunk when the source yields single rows. */
const CHUNK_ROWS = 500;

type RowSource<Row> = Iterable<Row | Row[]> | AsyncIterable<Row | Row[]>;

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  // A joined list is one cell (escaped as a whole by the writer); each item is neutralised too, so splitting
  // the cell into columns in Excel cannot turn an item into a formula.
  if (Array.isArray(value)) return value.map((item) => neutralise(formatCell(item))).join(", ");
  if (typeof value === "boolean") return value ? "Sí" : "No";
  return String(value);
}

/** A quote before a value that starts like a formula (what escapeFormulae does to a whole cell). */
export const neutralise = (text: string) => (FORMULA.test(text) ? `'${text}` : text);

/** The BOM and the header line (CRLF included). */
export const csvHeader = (headers: readonly string[]) => BOM + Papa.unparse([[...headers]], OPTIONS) + OPTIONS.newline;
const headerLine = <Row>(columns: CsvColumn<Row>[]) => csvHeader(columns.map((c) => c.header));

const NEEDS_QUOTES = /[",\r\n\uFEFF]|^ | $/;
/**
 * One cell exactly as papaparse's unparse writes a text with these OPTIONS (a formula gets a leading quote
 * and is quoted; quotes doubled; quoted when it holds a comma, a quote, a line break or the BOM, or starts
 * or ends with a space), without building an array of arrays per batch: the million-row report's hot path.
 * tests/unit/csv.test.ts checks it against Papa.unparse.
 */
export function csvCell(text: string): string {
  if (FORMULA.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  if (!NEEDS_QUOTES.test(text)) return text;
  return `"${text.replace(/"/g, '""')}"`;
}

const FORMULA_SQL = sql.raw(String.raw`'^[-=+@\t\r]'`);
/** Anything that needs a prefix or quotes: one test for the common plain text. */
const SPECIAL_SQL = sql.raw(String.raw`'^[-=+@\t\r ]|[",\r\n\uFEFF]| $'`);
/**
 * csvCell(formatCell(text)) computed by PostgreSQL for a text expression (null: an empty cell), for the
 * lines the database writes itself (server/modules/reports/report.ts): the same formula prefix, quote
 * doubling and quoting rules (PostgreSQL's regular expressions read the escapes; `$` is the text's end).
 */
export const csvCellSql = (text: SQL) => sql`(case when ${text} is null then ''
  when ${text} !~ ${SPECIAL_SQL} then ${text}
  when ${text} ~ ${FORMULA_SQL} then '"''' || replace(${text}, '"', '""') || '"'
  else '"' || replace(${text}, '"', '""') || '"' end)`;

function rowLines<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  let out = "";
  for (const row of rows) {
    let line = "";
    for (let i = 0; i < columns.length; i++) {
      if (i) line += ",";
      line += csvCell(formatCell(columns[i].value(row)));
    }
    out += line + OPTIONS.newline;
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
