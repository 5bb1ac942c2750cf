/**
 * The one CSV writer of the product: UTF-8 with BOM for Excel, every cell neutralised against formula
 * injection (papaparse's escapeFormulae prefixes a quote to cells starting with = + - @ tab or CR).
 */
import Papa from "papaparse";

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => unknown;
}

const BOM = "\uFEFF";
const FORMULA = /^[=+\-@\t\r]/;

export function toCsv<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  const data = rows.map((row) => columns.map((c) => formatCell(c.value(row))));
  return BOM + Papa.unparse({ fields: columns.map((c) => c.header), data }, { escapeFormulae: FORMULA, newline: "\r\n" });
}

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(formatCell).join(", ");
  if (typeof value === "boolean") return value ? "Sí" : "No";
  return String(value);
}

export function csvFilename(base: string) {
  return `attachment; filename="${base.replace(/[^A-Za-z0-9_.-]/g, "_")}"`;
}
