/**
 * A declared resource's record as it answers: its table's columns (less the hidden ones), typed and
 * nullable as the database declares them, its computed columns and its nested rows. Derived from the
 * declaration, so the published answer and the serialised one cannot drift from the table.
 */
import { getTableColumns } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";

/** What a record's schema is derived from: the parts of a resource's declaration (server/http/resource.ts). */
export interface RecordDeclaration {
  singular: string;
  table: PgTable;
  hidden?: string[];
  computed?: object;
  nested?: Array<{ name: string }>;
  answer?: Record<string, z.ZodType | null>;
}

function columnSchema(column: PgColumn): z.ZodType {
  const type = column.columnType;
  let schema: z.ZodType;
  switch (column.dataType) {
    case "number":
      schema = /Integer|Serial|SmallInt/.test(type) ? z.number().int() : z.number();
      break;
    case "bigint":
      schema = z.number().int();
      break;
    case "boolean":
      schema = z.boolean();
      break;
    case "date":
      // A Date on the server, an ISO 8601 text on the wire.
      schema = z.string().meta({ format: "date-time" });
      break;
    case "string":
      schema =
        type === "PgDateString" || type === "PgDate"
          ? z.string().meta({ format: "date" })
          : type === "PgNumeric"
            ? z.string().meta({ description: "Número decimal exacto, como texto" })
            : z.string();
      break;
    case "array":
      schema = z.array(z.unknown());
      break;
    default:
      schema = z.unknown();
  }
  return column.notNull ? schema : schema.nullable();
}

const CACHE = new WeakMap<RecordDeclaration, z.ZodType>();

/**
 * The record schema of a resource. Computed columns are declared by their SQL, which carries no runtime
 * type: they are documented as present, of any type. A resource whose `present` reshapes the record
 * declares the difference in `answer`.
 */
export function recordSchema(def: RecordDeclaration): z.ZodType {
  const cached = CACHE.get(def);
  if (cached) return cached;
  const shape: Record<string, z.ZodType> = {};
  const hidden = new Set(def.hidden ?? []);
  for (const [key, column] of Object.entries(getTableColumns(def.table))) {
    if (!hidden.has(key)) shape[key] = columnSchema(column as PgColumn);
  }
  for (const key of Object.keys(def.computed ?? {})) shape[key] = z.unknown().optional();
  for (const nested of def.nested ?? []) shape[nested.name] = z.array(z.looseObject({ id: z.number().int() }));
  for (const [key, schema] of Object.entries(def.answer ?? {})) {
    if (schema === null) delete shape[key];
    else shape[key] = schema;
  }
  const schema = z.looseObject(shape).describe(`Registro de ${def.singular}`);
  CACHE.set(def, schema);
  return schema;
}

/**
 * Types of computed columns, for a resource's `answer` (their SQL carries no runtime type). Nullable: a
 * scalar subquery answers null when it finds nothing.
 */
export const answered = {
  text: z.string().nullable(),
  whole: z.number().int().nullable(),
  number: z.number().nullable(),
  flag: z.boolean().nullable(),
  object: (shape: Record<string, z.ZodType>) => z.looseObject(shape).nullable(),
};
