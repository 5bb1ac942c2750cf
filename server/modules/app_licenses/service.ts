/**
 * Licence rules (SPEC §5) and the SQL script that installs one licence in the client's system
 * (docs/license-script.md). Every value of the script is built by sqlLiteral(), read alike by PostgreSQL,
 * MySQL, MariaDB and SQLite, so no name, RFC or code can end a literal early or add a statement.
 */
import { eq } from "drizzle-orm";
import { MESA_ELECTRONICA_PRODUCT_NAME } from "../../../src/core/constants";
import { messages } from "../../../src/core/messages";
import type { appLicenseSchema, appLicenseUpdateSchema } from "../../../src/core/schemas/app_license";
import type { Tx } from "../../db/client";
import { app_licenses, clients, products } from "../../db/schema";
import { notFound, ValidationError } from "../../http/errors";
import type { WriteArgs } from "../../http/resource";

/** SPEC §5: the "mesa electrónica" key flag only stands for Siglo CD licences; any other product resets it. */
export async function applyLicenseRules(
  ...[values, ctx, existing]: WriteArgs<typeof app_licenses, typeof appLicenseSchema, typeof appLicenseUpdateSchema>
) {
  const productId = values.product_catalog_id ?? existing?.product_catalog_id;
  if (productId === undefined) return values;
  const [product] = await ctx.db.select({ name: products.name }).from(products).where(eq(products.id, productId)).limit(1);
  if (!product) throw ValidationError.field("product_catalog_id", messages.invalidReference);
  if (product.name.trim() !== MESA_ELECTRONICA_PRODUCT_NAME) values.has_mesa_electronica_license_key = false;
  return values;
}

/**
 * A value as SQL that every dialect the script is run with reads the same way (docs/license-script.md):
 * a standard string literal, quotes doubled, NUL refused; NULL for null. A backslash never appears inside
 * a literal, because MySQL and MariaDB (by default) read it as an escape, so `O\'` would end the literal
 * early. A value with backslashes is written with a placeholder character that the value does not contain,
 * restored by `REPLACE(…, SUBSTR('\\', 1, 1))`: `'\\'` is one backslash where backslashes escape and two
 * where they do not, and its first character is a backslash either way. REPLACE and SUBSTR exist in
 * PostgreSQL, MySQL, MariaDB and SQLite alike.
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (text.includes("\u0000")) throw ValidationError.base(`La licencia ${messages.invalidCharacters} (carácter nulo)`);
  const quote = (part: string) => `'${part.replaceAll("'", "''")}'`;
  if (!text.includes("\\")) return quote(text);
  const mark = markNotIn(text);
  return `REPLACE(${quote(text.replaceAll("\\", mark))}, '${mark}', SUBSTR('\\\\', 1, 1))`;
}

/**
 * One character that does not occur in the text: printable ASCII first (no quote, no backslash), then the
 * private use area. One character, so a placeholder can never be formed across a replaced backslash.
 */
function markNotIn(text: string): string {
  for (let code = 0x21; code <= 0xf8ff; code = code === 0x7e ? 0xe000 : code + 1) {
    const c = String.fromCharCode(code);
    if (c !== "'" && c !== "\\" && !text.includes(c)) return c;
  }
  throw ValidationError.base(`La licencia ${messages.invalidCharacters}`);
}

export const LICENSE_TABLE = "sia_licencias";

/** Columns of sia_licencias, in script order (documented in docs/license-script.md). */
export const LICENSE_COLUMNS = [
  ["licencia_id", "INTEGER NOT NULL PRIMARY KEY"],
  ["cliente_codigo", "VARCHAR(40) NOT NULL"],
  ["cliente_nombre", "VARCHAR(200) NOT NULL"],
  ["entidad_nombre", "VARCHAR(300) NOT NULL"],
  ["entidad_rfc", "VARCHAR(13) NOT NULL"],
  ["producto_codigo", "VARCHAR(40) NOT NULL"],
  ["producto_nombre", "VARCHAR(160) NOT NULL"],
  ["ambiente", "VARCHAR(10) NOT NULL"],
  ["num_licencias", "INTEGER NOT NULL"],
  ["tipo_licencia", "VARCHAR(30) NOT NULL"],
  ["vigente_hasta", "DATE"],
  ["modulo_emision", "SMALLINT NOT NULL"],
  ["modulo_recepcion", "SMALLINT NOT NULL"],
  ["modulo_conciliacion", "SMALLINT NOT NULL"],
  ["llave_mesa_electronica", "SMALLINT NOT NULL"],
  ["activa", "SMALLINT NOT NULL"],
  ["generada_en", "VARCHAR(30) NOT NULL"],
] as const;

export async function licenseScript(db: Tx, id: number, now = new Date()): Promise<{ filename: string; sql: string }> {
  const [row] = await db
    .select({
      license: app_licenses,
      client_code: clients.client_code,
      client_name: clients.name,
      product_code: products.product_code,
      product_name: products.name,
    })
    .from(app_licenses)
    .innerJoin(clients, eq(clients.id, app_licenses.client_id))
    .innerJoin(products, eq(products.id, app_licenses.product_catalog_id))
    .where(eq(app_licenses.id, id))
    .limit(1);
  if (!row) throw notFound();
  const l = row.license;
  const bit = (on: boolean) => (on ? "1" : "0");
  const values: Record<(typeof LICENSE_COLUMNS)[number][0], unknown> = {
    licencia_id: l.id,
    cliente_codigo: row.client_code,
    cliente_nombre: row.client_name,
    entidad_nombre: l.entity_name,
    entidad_rfc: l.entity_rfc,
    producto_codigo: row.product_code,
    producto_nombre: row.product_name,
    ambiente: l.environment,
    num_licencias: l.num_licenses,
    tipo_licencia: l.license_type,
    vigente_hasta: l.license_valid_until,
    modulo_emision: bit(l.modules.includes("Emission")),
    modulo_recepcion: bit(l.modules.includes("Reception")),
    modulo_conciliacion: bit(l.modules.includes("Conciliation")),
    llave_mesa_electronica: bit(l.has_mesa_electronica_license_key),
    activa: bit(l.is_active),
    generada_en: now.toISOString(),
  };
  const names = LICENSE_COLUMNS.map(([name]) => name);
  const literals = names.map((name) => sqlLiteral(values[name]));
  // Only fixed text and literals from sqlLiteral() go into the script: user data never reaches a comment.
  const sql = [
    `-- SIA: licencia ${Number(l.id)}. Instala o reemplaza esta licencia en la tabla ${LICENSE_TABLE}.`,
    "-- Ejecutar completo; puede ejecutarse más de una vez (borra y vuelve a insertar la misma licencia).",
    // MySQL and MariaDB only (a comment elsewhere): the file is UTF-8, and the table keeps any character.
    "/*!40101 SET NAMES utf8mb4 */;",
    // Before BEGIN: MySQL and MariaDB commit any open transaction on CREATE TABLE.
    `CREATE TABLE IF NOT EXISTS ${LICENSE_TABLE} (`,
    LICENSE_COLUMNS.map(([name, type]) => `  ${name} ${type}`).join(",\n"),
    ") /*!40101 DEFAULT CHARSET=utf8mb4 */;",
    "BEGIN;",
    `DELETE FROM ${LICENSE_TABLE} WHERE licencia_id = ${sqlLiteral(l.id)};`,
    `INSERT INTO ${LICENSE_TABLE} (${names.join(", ")})`,
    `VALUES (${literals.join(", ")});`,
    "COMMIT;",
    "",
  ].join("\n");
  return { filename: `licencia_${Number(l.id)}.sql`, sql };
}
