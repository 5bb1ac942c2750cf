/**
 * Declared resources. A resource says what it is (table, zod schemas from src/core, searchable and
 * sortable columns, filters, computed columns, nested rows, own-record scope, delete guards, service
 * hooks); this module serves it with the /api/v1 conventions of ARCHITECTURE.md:
 *
 *   GET    /<name>          list: page, per_page (10 | N | all), search, by_column[column|order], filters
 *   GET    /<name>.csv      the same list as CSV (when the resource declares csv columns)
 *   GET    /<name>/:id      {<singular>: record}
 *   POST   /<name>          body {<singular>: {...}} → 201 {<singular>: record}
 *   PUT    /<name>/:id      body {<singular>: {..., lock_version}} or If-Match → {<singular>: record}
 *   DELETE /<name>/:id      → {<singular>: record}
 *
 * Every call is authorised against the permission matrix; an "own" grant narrows every query with
 * the resource's `own` scope (records outside it answer 404, like records that do not exist).
 *
 * Every record carries `lock_version` (also its ETag on GET one). An update must say which version it
 * was read at (If-Match or the body's lock_version; without it 428) and is written only while that is
 * still the current version (UPDATE … WHERE id AND lock_version, which bumps it): a stale save answers
 * 409 with the record as it is now, never silently undoing another user's save
 * (docs/decisions/023-versions-lost-updates.md).
 */
import type { Readable } from "node:stream";
import {
  and,
  asc,
  type DriverValueDecoder,
  desc,
  eq,
  getTableColumns,
  inArray,
  is,
  Param,
  SQL,
  StringChunk,
  sql,
} from "drizzle-orm";
import { PgColumn, PgDialect, type PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { PAGE_SIZE } from "../../src/core/constants";
import { messages } from "../../src/core/messages";
import type { Action, Grant } from "../../src/core/permissions";
import { notANumber } from "../../src/core/schemas/fields";
import type { SessionUser } from "../../src/core/session";
import type { Db, Tx } from "../db/client";
import { CSV_BATCH, lineBatchesInPieces, selectBatches } from "../db/cursor";
import { authorize, requires } from "./auth";
import { parseWrapped } from "./body";
import { type CsvColumn, csvFilename, csvLineStream, csvStream } from "./csv";
import { guardedDownload } from "./downloads";
import { databaseValidationError, HttpError, notFound, parse, ValidationError } from "./errors";
import { doc, fileAnswer, idParams, queryNotes } from "./openapi";
import { recordSchema } from "./records";
import { searchCondition } from "./search";

export interface RequestContext {
  app: FastifyInstance;
  request: FastifyRequest;
  user: SessionUser;
  grant: Grant;
  db: Tx;
}

export interface FilterDef {
  /** Parses the raw query value (a string); invalid values answer 422 on that parameter. */
  schema: z.ZodType;
  where: (value: never, ctx: RequestContext) => SQL | undefined;
}

export interface NestedDef {
  /** Key under which the rows are read (`client_product_catalogs`); written as `<name>_attributes`. */
  name: string;
  table: PgTable & { id: PgColumn };
  foreignKey: PgColumn;
  columns: Record<string, PgColumn | SQL.Aliased | SQL>;
  /** Row fields written (besides id and _destroy). */
  writable: string[];
}

type Row = Record<string, unknown> & { id: number };
type Values = Record<string, unknown>;

/** A table a resource can serve: any table with an integer `id`. */
export type ResourceTable = PgTable & { id: PgColumn };
type Schema = z.ZodType<Values>;

/**
 * Computed columns declared with the type each one reads as (`TValues`, inferred by declareResource
 * from the columns' SQL: unknown when the SQL declares none).
 */
type ComputedColumns<TValues> = {
  [K in keyof TValues]: SQL<TValues[K]> | SQL.Aliased<TValues[K]> | ((ctx: RequestContext) => SQL.Aliased<TValues[K]>);
};

/**
 * A record as the hooks see it: the table's row (`$inferSelect`) and the computed columns, typed; the
 * nested rows and anything else a select adds stay `unknown`. The `hidden` columns keep their type but
 * are not read: a hook that needs one selects it.
 */
export type ResourceRecord<TTable extends ResourceTable = ResourceTable, TComputed = Values> = TTable["$inferSelect"] &
  TComputed &
  Row;

/**
 * beforeWrite's arguments: a create brings what the create schema parsed and no record; an update,
 * what the update schema parsed and the record as it was read (checking `existing` tells them apart).
 * A resource without one of the schemas has no such case. Keys outside the schema read as unknown: a
 * hook may add the values it derives (a stored code, say).
 */
export type WriteArgs<
  TTable extends ResourceTable = ResourceTable,
  TCreate extends Schema = Schema,
  TUpdate extends Schema = Schema,
  TComputed = Values,
> =
  | [values: z.output<TCreate> & Values, ctx: RequestContext, existing: null]
  | [values: z.output<TUpdate> & Values, ctx: RequestContext, existing: ResourceRecord<TTable, TComputed>];

/**
 * What a resource declares. The type parameters are what `declareResource` infers from the table, the
 * schemas and the computed columns, so the hooks get typed rows and input; the engine itself
 * (ResourceService, registerResource) works on the erased `ResourceDef` with the defaults.
 */
export interface ResourceDef<
  TTable extends ResourceTable = ResourceTable,
  TCreate extends Schema = Schema,
  TUpdate extends Schema = Schema,
  TComputed = Values,
> {
  name: string;
  singular: string;
  /** Permission-matrix resource, when it differs from the name. */
  permission?: string;
  table: TTable;
  createSchema?: TCreate;
  updateSchema?: TUpdate;
  search?: PgColumn[];
  sortable: Record<string, PgColumn | SQL>;
  defaultSort: { column: string; order: "asc" | "desc" };
  filters?: Record<string, FilterDef>;
  /**
   * Extra read-only columns (scalar subqueries), computed in the same query: no N+1. A function is a
   * column that depends on the request (the signed-in user's unread messages, say).
   */
  computed?: ComputedColumns<TComputed>;
  /** Columns never sent to clients. */
  hidden?: string[];
  own?: (user: SessionUser) => SQL;
  nested?: NestedDef[];
  /** Each guard answers a Spanish reason to refuse deleting the record, or null. */
  deleteGuards?: Array<(id: number, db: Tx) => Promise<string | null>>;
  /** Runs before a record is read by id (show, update, delete): e.g. creates a singleton row on first use. */
  ensure?: (id: number, db: Tx) => Promise<void>;
  /** Service rules before a write, inside the transaction: returns the values to store. */
  beforeWrite?: (...args: WriteArgs<TTable, TCreate, TUpdate, TComputed>) => Promise<Values> | Values;
  afterWrite?: (
    record: ResourceRecord<TTable, TComputed>,
    ctx: RequestContext,
    existing: ResourceRecord<TTable, TComputed> | null,
  ) => Promise<void> | void;
  /** Service rules after a delete, inside its transaction (the deleted record as it was read). */
  afterDelete?: (record: ResourceRecord<TTable, TComputed>, ctx: RequestContext) => Promise<void> | void;
  /** Shapes a record before it is sent (list and show). */
  present?: (record: ResourceRecord<TTable, TComputed>, ctx: RequestContext) => Row;
  /**
   * The list as CSV: JS columns through the writer, or `lines`, a line PostgreSQL writes itself (CRLF
   * included) from the list's columns (`column(name)`), for the big activity exports.
   */
  csv?:
    | { filename: string; columns: CsvColumn<ResourceRecord<TTable, TComputed>>[] }
    | { filename: string; headers: readonly string[]; line: (column: (name: string) => SQL) => SQL };
  /** Actions this resource does not offer through the generic routes. */
  without?: Array<"create" | "update" | "delete">;
  /**
   * Wraps a create or update request's whole write (commit included): for side effects outside the
   * database that must be undone when the write fails (the drive's folders).
   */
  aroundWrite?: <T>(app: FastifyInstance, request: FastifyRequest, write: () => Promise<T>) => Promise<T>;
  /**
   * How `present` changes the record it answers, by key: a schema for a key added or retyped, null for a
   * key removed (the table's columns, typed, are the rest: server/http/records.ts).
   */
  answer?: Record<string, z.ZodType | null>;
  /** Resource-specific routes (registered in the same /api/v1 scope). */
  routes?: (app: FastifyInstance, service: ResourceService) => void;
}

/**
 * Declares a resource with its hooks typed by what it declares. The result is the erased
 * `ResourceDef` the engine serves: the one widening between the two. It holds because the engine
 * only calls the hooks with rows read from `table` (with the computed columns) and with input parsed
 * by the resource's own schemas.
 */
export const declareResource = <
  TTable extends ResourceTable,
  TCreate extends Schema = z.ZodType<never>,
  TUpdate extends Schema = z.ZodType<never>,
  TComputed = Record<never, never>,
>(
  def: ResourceDef<TTable, TCreate, TUpdate, TComputed>,
): ResourceDef => def as unknown as ResourceDef;

/* ---------- filters ---------- */

/** A list parameter: a JSON array (`["a","b"]`), one JSON value, or a comma list. */
export const jsonArray = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => {
    if (typeof v !== "string") return v;
    try {
      const parsed = JSON.parse(v);
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return v.split(",").filter(Boolean);
    }
  }, z.array(item).max(500));

const boolParam = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const idParam = z.coerce.number().int().positive();

export const filter = {
  idEquals: (column: PgColumn): FilterDef => ({ schema: idParam, where: (v: number) => eq(column, v) }),
  idIn: (column: PgColumn): FilterDef => ({
    schema: jsonArray(idParam),
    where: (v: number[]) => (v.length ? inArray(column, v) : undefined),
  }),
  bool: (column: PgColumn): FilterDef => ({ schema: boolParam, where: (v: boolean) => eq(column, v) }),
  valueIn: (column: PgColumn, allowed?: readonly string[]): FilterDef => ({
    schema: jsonArray(allowed ? z.enum(allowed as [string, ...string[]]) : z.string().max(100)),
    where: (v: string[]) => (v.length ? inArray(column, v) : undefined),
  }),
  custom: <T extends z.ZodType>(schema: T, where: (value: z.infer<T>, ctx: RequestContext) => SQL | undefined): FilterDef => ({
    schema,
    where: where as FilterDef["where"],
  }),
};

/* ---------- list parameters ---------- */

export const listParams = z.object({
  page: z.coerce.number({ error: notANumber }).int().min(1).max(1_000_000).default(1),
  per_page: z.union([z.literal("all"), z.coerce.number({ error: notANumber }).int().min(1).max(1000)]).default(PAGE_SIZE),
  search: z.string().max(200).optional(),
  "by_column[column]": z.string().max(60).optional(),
  "by_column[order]": z.enum(["asc", "desc", "ASC", "DESC"]).optional(),
});

/** A list's query as the route has validated it (listQuery): page and per_page read, filters parsed. */
export type ListQuery = Record<string, unknown> & { readonly [PARSED]: true };
const PARSED = Symbol("parsed list query");

/** An empty filter (`?status=`) is no filter, as before the query was declared. */
const emptyIsAbsent = (schema: z.ZodType) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional()).meta({ description: queryNotes.filter });

/* ---------- the machinery ---------- */

const dialect = new PgDialect();

/**
 * A table column as drizzle writes it in a select ("table"."column" in a join, "column" alone), as SQL
 * text rendered once that decodes its values with the column itself (timestamps to Date and so on).
 */
function precompiledColumn(column: PgColumn, joined: boolean): SQL {
  const text = dialect.sqlToQuery(joined ? sql`${column}` : sql`${sql.identifier(column.name)}`).sql;
  return new SQL([new StringChunk(text)]).mapWith(column);
}

/**
 * A static computed column as drizzle would write it in a select (single-table: its top-level columns
 * unqualified, as PgDialect.buildSelection does; the app sets no casing), rendered to text once: the same statement, without
 * walking the column's SQL tree on every request. Its parameters stay parameters, renumbered in place.
 */
function precompiled(column: SQL | SQL.Aliased, singleTable: boolean): SQL | SQL.Aliased {
  const aliased = is(column, SQL.Aliased) ? column : null;
  const query = aliased ? aliased.sql : (column as SQL);
  const source = singleTable ? new SQL(query.queryChunks.map((c) => (is(c, PgColumn) ? sql.identifier(c.name) : c))) : query;
  const rendered = dialect.sqlToQuery(source);
  const pieces = rendered.sql.split(/\$(\d+)/);
  // Text and parameters alternate: [text, "1", text, "2", text…]; anything else is left to drizzle.
  const numbers = pieces.filter((_, i) => i % 2 === 1).map(Number);
  if (numbers.length !== rendered.params.length || numbers.some((n, i) => n !== i + 1)) return column;
  const chunks = pieces.map((piece, i) => (i % 2 === 0 ? new StringChunk(piece) : new Param(rendered.params[Number(piece) - 1])));
  // The column's decoder (mapWith) goes with it.
  const out = new SQL(chunks).mapWith((query as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder);
  return aliased ? out.as(aliased.fieldAlias) : out;
}

/* ---------- versions (optimistic locking) ---------- */

/** A version is a whole number, as a number or its digits ("3"); nothing else is read as one (true, [0], "1e3"). */
const versionSchema = z
  .union([
    z.number().int(),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().min(0).max(2_147_483_647));

/**
 * The version an update was read at: the If-Match header (`"3"`; a weak `W/"3"` never matches, RFC 9110
 * §13.1.1) or, for clients that keep it in the record (react-admin's form), the body's lock_version
 * (wrapped or bare). When both come they must agree. Undefined when neither is sent; a malformed one, or
 * two that disagree, is a 422.
 */
export function expectedVersion(request: FastifyRequest, body: unknown, singular: string): number | undefined {
  const header = request.headers["if-match"];
  const outer = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const inner = outer[singular] && typeof outer[singular] === "object" ? (outer[singular] as Record<string, unknown>) : outer;
  const version = (raw: unknown) => {
    const parsed = versionSchema.safeParse(raw);
    if (!parsed.success) throw ValidationError.field("lock_version", messages.invalidVersion);
    return parsed.data;
  };
  const fromBody =
    inner.lock_version === undefined || inner.lock_version === null || inner.lock_version === ""
      ? undefined
      : version(inner.lock_version);
  if (typeof header === "string" && header.trim()) {
    const text = header.trim();
    if (text.startsWith("W/")) throw ValidationError.field("lock_version", messages.invalidVersion);
    const fromHeader = version(text.replace(/^"(.*)"$/, "$1"));
    if (fromBody !== undefined && fromBody !== fromHeader) throw ValidationError.field("lock_version", messages.invalidVersion);
    return fromHeader;
  }
  return fromBody;
}

/** The version a custom update route requires: 428 without one. */
export function requireVersion(request: FastifyRequest, body: unknown, singular: string): number {
  const version = expectedVersion(request, body, singular);
  if (version === undefined) throw new HttpError(428, messages.versionRequired, { error: messages.versionRequired });
  return version;
}

/** A stale save: 409 with the record as it is now, so the form can show what changed. */
export const staleVersion = (singular: string, current?: Row) =>
  new HttpError(409, messages.staleVersion, { error: messages.staleVersion, ...(current ? { [singular]: current } : {}) });

/** The ETag of a record (its lock_version), for GET one and the answer to an update. */
export const etagOf = (record: unknown) => {
  const version = (record as { lock_version?: unknown } | null)?.lock_version;
  return typeof version === "number" ? `"${version}"` : undefined;
};

/**
 * An UPDATE of one versioned row that writes only at the version the client read, and bumps it: the
 * optimistic lock for custom routes (transitions, stages) that do not go through ResourceService.update.
 * Throws the 409 when another save came first.
 */
export async function updateVersioned(
  tx: Tx,
  table: PgTable & { id: PgColumn; lock_version: PgColumn },
  id: number,
  version: number,
  values: Values,
  singular: string,
) {
  const rows = await tx
    .update(table)
    .set({ ...values, lock_version: sql`${table.lock_version} + 1` })
    .where(and(eq(table.id, id), eq(table.lock_version, version)))
    .returning({ id: table.id });
  if (!rows.length) throw staleVersion(singular);
}

/** The id column of a list's page subquery (the deferred join). */
const PAGE_ID = "sia_page_id";

export class ResourceService {
  /** The declared filters and, built in for every resource, ids=[1,2,3] (react-admin's getMany): built once. */
  private readonly filters: Record<string, FilterDef>;

  constructor(readonly def: ResourceDef) {
    this.filters = { ids: filter.idIn(def.table.id), ...(def.filters ?? {}) };
  }

  get permission() {
    return this.def.permission ?? this.def.name;
  }

  context(app: FastifyInstance, request: FastifyRequest, action: Action, db: Tx = app.db.db): RequestContext {
    const grant = authorize(request, this.permission, action);
    return { app, request, user: request.user as SessionUser, grant, db };
  }

  /** The static part of each selection (table columns and precompiled computed columns), by kind of select. */
  private readonly selections = new Map<boolean, Record<string, unknown>>();

  /**
   * The columns a select reads: the table's (less the hidden ones) and the computed ones. `joined` is a
   * select with a join (the list page's deferred join), whose columns drizzle writes qualified. Table
   * columns and static computed columns are rendered to SQL text once per kind (precompiledColumn,
   * precompiled), not on every request.
   */
  private selection(ctx: RequestContext, joined = false) {
    let base = this.selections.get(joined);
    if (!base) {
      base = {};
      for (const [key, column] of Object.entries(getTableColumns(this.def.table)))
        base[key] = precompiledColumn(column as PgColumn, joined);
      for (const key of this.def.hidden ?? []) delete base[key];
      for (const [key, column] of Object.entries(this.def.computed ?? {}))
        if (typeof column !== "function") base[key] = precompiled(column, !joined);
      this.selections.set(joined, base);
    }
    const columns: Record<string, unknown> = { ...base };
    for (const [key, column] of Object.entries(this.def.computed ?? {}))
      if (typeof column === "function") columns[key] = column(ctx);
    return columns as Record<string, PgColumn | SQL>;
  }

  private scope(ctx: RequestContext): SQL | undefined {
    if (ctx.grant !== "own") return undefined;
    if (!this.def.own) return sql`false`;
    return this.def.own(ctx.user);
  }

  /** Conditions of a list request: scope, search and declared filters. */
  conditions(ctx: RequestContext, query: Record<string, unknown> | ListQuery): SQL | undefined {
    const conditions: Array<SQL | undefined> = [this.scope(ctx)];
    const search = typeof query.search === "string" ? query.search.trim() : "";
    if (search && this.def.search?.length) conditions.push(searchCondition(this.def.search, search));
    const errors: Record<string, string[]> = {};
    const validated = PARSED in query;
    for (const [name, f] of Object.entries(this.filters)) {
      const raw = query[name];
      if (raw === undefined || raw === "") continue;
      const parsed = validated ? { success: true as const, data: raw } : f.schema.safeParse(raw);
      if (!parsed.success) {
        errors[name] = [parsed.error.issues[0]?.message ?? messages.invalidValue];
        continue;
      }
      conditions.push(f.where(parsed.data as never, ctx));
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return and(...conditions.filter(Boolean));
  }

  /**
   * The list's query as the routes declare it: page, per_page, search, by_column and each filter. The
   * route validates it before the handler; the service's own callers pass raw values, parsed here.
   */
  get listQuery(): z.ZodType<ListQuery> {
    this.query ??= z
      .looseObject({
        ...listParams.shape,
        "by_column[column]": z
          .enum(Object.keys(this.def.sortable) as [string, ...string[]])
          .optional()
          .meta({ description: queryNotes.sort }),
        ...Object.fromEntries(Object.entries(this.filters).map(([name, f]) => [name, emptyIsAbsent(f.schema)])),
      })
      .transform((value) => ({ ...value, [PARSED]: true as const }));
    return this.query;
  }
  private query?: z.ZodType<ListQuery>;

  private ordering(query: Record<string, unknown> | ListQuery) {
    const params = (PARSED in query ? query : parse(listParams, query)) as z.output<typeof listParams>;
    const column = params["by_column[column]"] ?? this.def.defaultSort.column;
    // Own keys only: `__proto__` or `constructor` must not reach the ORDER BY as an inherited value.
    const sortable = Object.hasOwn(this.def.sortable, column) ? this.def.sortable[column] : undefined;
    if (!sortable) throw ValidationError.field("by_column", messages.invalidValue);
    const order = (params["by_column[order]"] ?? this.def.defaultSort.order).toLowerCase();
    const direction = order === "desc" ? desc : asc;
    return { params, orderBy: [direction(sortable), direction(this.def.table.id)] };
  }

  /**
   * One page of the list and its total. The page is chosen first on the table alone (where, order, limit,
   * offset: an index walk that stops at the page, or a trigram search), and only its rows get the computed
   * columns (a deferred join): a deep page costs no computed column for the rows it skips. The total is a
   * plain count run beside it (each can use its own best plan). `per_page=all` is one statement.
   */
  async list(ctx: RequestContext, query: Record<string, unknown> | ListQuery) {
    const { params, orderBy } = this.ordering(query);
    const where = this.conditions(ctx, query);
    const table = this.def.table as PgTable & { id: PgColumn };
    let rows: Row[];
    let total: number;
    if (params.per_page === "all") {
      rows = (await ctx.db
        .select(this.selection(ctx))
        .from(table)
        .where(where)
        .orderBy(...orderBy)) as Row[];
      total = rows.length;
    } else {
      const page = ctx.db
        .select({ [PAGE_ID]: table.id })
        .from(table)
        .where(where)
        .orderBy(...orderBy)
        .limit(params.per_page)
        .offset((params.page - 1) * params.per_page)
        .as("sia_page");
      const [paged, counted] = await Promise.all([
        ctx.db
          .select(this.selection(ctx, true))
          .from(table)
          .innerJoin(page, eq(table.id, page[PAGE_ID] as unknown as PgColumn))
          .orderBy(...orderBy) as unknown as Promise<Row[]>,
        ctx.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where),
      ]);
      rows = paged;
      total = counted[0]?.n ?? 0;
    }
    await this.attachNested(ctx.db, rows);
    return {
      rows: rows.map((r) => this.present(r, ctx)),
      meta: { total_count: total, page: params.page, per_page: params.per_page },
    };
  }

  async find(ctx: RequestContext, id: number): Promise<Row> {
    if (this.def.ensure) await this.def.ensure(id, ctx.db);
    const rows = (await ctx.db
      .select(this.selection(ctx))
      .from(this.def.table as PgTable)
      .where(and(eq(this.def.table.id, id), this.scope(ctx)))
      .limit(1)) as Row[];
    if (!rows[0]) throw notFound();
    await this.attachNested(ctx.db, rows);
    return rows[0];
  }

  async show(ctx: RequestContext, id: number) {
    return this.present(await this.find(ctx, id), ctx);
  }

  private present(row: Row, ctx: RequestContext) {
    return this.def.present ? this.def.present(row, ctx) : row;
  }

  private async attachNested(db: Tx, rows: Row[]) {
    if (!this.def.nested?.length || rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    for (const nested of this.def.nested) {
      const children = (await db
        .select({ ...nested.columns, __parent: nested.foreignKey })
        .from(nested.table as PgTable)
        .where(inArray(nested.foreignKey, ids))
        .orderBy(asc(nested.table.id))) as Array<Record<string, unknown>>;
      const byParent = new Map<unknown, unknown[]>();
      for (const { __parent, ...child } of children) {
        byParent.set(__parent, [...(byParent.get(__parent) ?? []), child]);
      }
      for (const row of rows) row[nested.name] = byParent.get(row.id) ?? [];
    }
  }

  /** Body {<singular>: {...}} (or the bare object, for lenient API clients) parsed by the schema. */
  parseBody(body: unknown, schema: z.ZodType<Values>): Values {
    return parseWrapped(body, this.def.singular, schema);
  }

  /** A create from the route's validated input (the create schema's output). */
  async create(ctx: RequestContext, input: Values) {
    if (!this.def.createSchema) throw notFound();
    const id = await this.write(ctx, input, null);
    return this.show({ ...ctx, grant: "all" }, id);
  }

  /** An update from the route's validated input (the update schema's output, lock_version kept). */
  async update(ctx: RequestContext, id: number, body: Values) {
    if (!this.def.updateSchema) throw notFound();
    const existing = await this.find(ctx, id);
    const version = requireVersion(ctx.request, body, this.def.singular);
    // Already stale: refused before any hook runs (the UPDATE below is what makes it atomic).
    if (existing.lock_version !== version) throw staleVersion(this.def.singular, this.present(existing, ctx));
    const input = { ...body };
    delete input.lock_version;
    try {
      await this.write(ctx, input, existing, version);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 409 && !error.body?.[this.def.singular]) {
        const current = await this.find(ctx, id).catch(() => null);
        throw staleVersion(this.def.singular, current ? this.present(current, ctx) : undefined);
      }
      throw error;
    }
    return this.show(ctx, id);
  }

  private async write(ctx: RequestContext, input: Values, existing: Row | null, version?: number): Promise<number> {
    return withValidation(() =>
      (ctx.app.db.db as Db).transaction(async (tx) => {
        const txCtx = { ...ctx, db: tx };
        const values = this.def.beforeWrite ? await this.def.beforeWrite({ ...input }, txCtx, existing) : { ...input };
        const nestedValues: Record<string, unknown> = {};
        for (const nested of this.def.nested ?? []) {
          const key = `${nested.name}_attributes`;
          if (key in values) nestedValues[nested.name] = values[key];
          delete values[key];
        }
        let id: number;
        if (existing) {
          id = existing.id;
          delete values.lock_version;
          // Written only at the version the client read (bumped even when only nested rows change).
          await updateVersioned(
            tx,
            this.def.table as PgTable & { id: PgColumn; lock_version: PgColumn },
            id,
            version ?? (existing.lock_version as number),
            values,
            this.def.singular,
          );
        } else {
          const [row] = (await tx.insert(this.def.table).values(values).returning({ id: this.def.table.id })) as {
            id: number;
          }[];
          id = row.id;
        }
        for (const nested of this.def.nested ?? []) {
          const rows = nestedValues[nested.name];
          if (Array.isArray(rows)) await applyNested(tx, nested, id, rows as Values[]);
        }
        if (this.def.afterWrite) {
          const [saved] = (await tx
            .select(this.selection(ctx))
            .from(this.def.table as PgTable)
            .where(eq(this.def.table.id, id))) as Row[];
          await this.def.afterWrite(saved, txCtx, existing);
        }
        return id;
      }),
    );
  }

  async remove(ctx: RequestContext, id: number) {
    const existing = await this.find(ctx, id);
    await withValidation(() =>
      (ctx.app.db.db as Db).transaction(async (tx) => {
        for (const guard of this.def.deleteGuards ?? []) {
          const reason = await guard(id, tx);
          if (reason) throw ValidationError.base(messages.deleteRefused(reason));
        }
        await tx.delete(this.def.table).where(eq(this.def.table.id, id));
        if (this.def.afterDelete) await this.def.afterDelete(existing, { ...ctx, db: tx });
      }),
    );
    return this.present(existing, ctx);
  }

  /**
   * The list (same filters, search and sort) as CSV, streamed: rows come through a database cursor in
   * batches and are written as they arrive (constant memory; docs/decisions/008-csv-streaming.md). Bad
   * parameters throw here, before anything is sent.
   */
  csv(ctx: RequestContext, query: Record<string, unknown> | ListQuery): Readable {
    const csv = this.def.csv;
    if (!csv) throw notFound();
    const { orderBy } = this.ordering(query);
    const where = this.conditions(ctx, query);
    const table = this.def.table as PgTable & { id: PgColumn };
    const listed = (condition = where) =>
      ctx.db
        .select(this.selection(ctx))
        .from(table)
        .where(condition)
        .orderBy(...orderBy);
    if ("line" in csv) {
      // The list as a subquery kept whole by OFFSET 0 (each computed column evaluated once, its order kept).
      const lines = (condition?: SQL) =>
        ctx.db.select({ line: csv.line((name) => sql.raw(`"r"."${name}"`)) }).from(listed(condition).offset(0).as("r"));
      const ids = ctx.db
        .select({ id: table.id })
        .from(table)
        .where(where)
        .orderBy(...orderBy);
      return csvLineStream(
        csv.headers,
        lineBatchesInPieces(ctx.app.db, lines(), ids, (piece) => lines(and(where, inArray(table.id, piece)))),
      );
    }
    return csvStream(csv.columns, this.batches(ctx, listed()));
  }

  private async *batches(ctx: RequestContext, select: object): AsyncGenerator<Row[]> {
    for await (const rows of selectBatches<Row>(ctx.app.db, select, CSV_BATCH)) {
      await this.attachNested(ctx.db, rows);
      yield rows.map((r) => this.present(r, ctx));
    }
  }
}

/** Runs a write; a constraint violation caused by the data becomes a 422, never a 500. */
export async function withValidation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const validation = databaseValidationError(error);
    if (validation) throw validation;
    throw error;
  }
}

async function applyNested(tx: Tx, nested: NestedDef, parentId: number, rows: Values[]) {
  const table = nested.table as PgTable & { id: PgColumn };
  // Deletions first, so a product removed and added again in one save does not collide.
  for (const row of rows.filter((r) => r._destroy && r.id)) {
    await tx.delete(table).where(and(eq(table.id, row.id as number), eq(nested.foreignKey, parentId)));
  }
  for (const row of rows.filter((r) => !r._destroy)) {
    const values = Object.fromEntries(nested.writable.filter((k) => k in row).map((k) => [k, row[k]]));
    if (row.id) {
      const updated = await tx
        .update(table)
        .set(values)
        .where(and(eq(table.id, row.id as number), eq(nested.foreignKey, parentId)))
        .returning({ id: table.id });
      if (!updated.length) throw ValidationError.field(`${nested.name}_attributes`, messages.invalidReference);
    } else {
      await tx.insert(table).values({ ...values, [nested.foreignKey.name]: parentId });
    }
  }
}

const idParamSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export function idOf(request: FastifyRequest): number {
  const parsed = idParamSchema.safeParse(request.params);
  if (!parsed.success) throw notFound();
  return parsed.data.id;
}

/**
 * Sends a CSV body (a string or the writer's stream, piped with back-pressure) as a download. A stream
 * takes one of the user's download slots and is ended if its reader stalls (server/http/downloads.ts).
 */
export function sendCsv(reply: FastifyReply, filename: string, body: string | Readable) {
  const payload = typeof body === "string" ? body : guardedDownload(reply, body);
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", csvFilename(filename))
    .send(payload);
}

/** Registers one declared resource's routes, each with its declared contract (server/http/openapi.ts). */
export function registerResource(app: FastifyInstance, def: ResourceDef) {
  const service = new ResourceService(def);
  const tags = [def.name];
  const path = `/${def.name}`;
  const without = new Set(def.without ?? []);
  const permission = service.permission;
  const around = <T>(request: FastifyRequest, write: () => Promise<T>) =>
    def.aroundWrite ? def.aroundWrite(app, request, write) : write();
  const record = recordSchema(def);
  const one = z.object({ [def.singular]: record });
  const bodyOf = (request: FastifyRequest) => (request.body as Values)[def.singular] as Values;

  app.get(
    path,
    {
      schema: doc({
        tags,
        summary: `Lista de ${def.name}`,
        querystring: service.listQuery,
        response: { 200: z.object({ [def.name]: z.array(record), meta: listMeta }) },
      }),
      config: requires(permission, "list"),
    },
    async (request) => {
      const ctx = service.context(app, request, "list");
      const { rows, meta } = await service.list(ctx, request.query as ListQuery);
      return { [def.name]: rows, meta };
    },
  );
  if (def.csv) {
    app.get(
      `${path}.csv`,
      {
        schema: doc({
          tags,
          summary: `CSV de ${def.name}`,
          querystring: service.listQuery,
          response: { 200: fileAnswer("text/csv", "La lista (mismos filtros, búsqueda y orden) como CSV") },
        }),
        config: requires(permission, "export"),
      },
      async (request, reply) => {
        const ctx = service.context(app, request, "export");
        return sendCsv(reply, def.csv?.filename ?? `${def.name}.csv`, service.csv(ctx, request.query as ListQuery));
      },
    );
  }
  app.get(
    `${path}/:id`,
    {
      schema: doc({ tags, summary: `Detalle de ${def.singular}`, params: idParams, response: { 200: one } }),
      config: requires(permission, "show"),
    },
    async (request, reply) => {
      const ctx = service.context(app, request, "show");
      const record = await service.show(ctx, idOf(request));
      const etag = etagOf(record);
      if (etag) reply.header("etag", etag);
      return { [def.singular]: record };
    },
  );
  if (def.createSchema && !without.has("create")) {
    app.post(
      path,
      {
        schema: doc({
          tags,
          summary: `Crear ${def.singular}`,
          body: def.createSchema,
          wrap: def.singular,
          response: { 201: one },
        }),
        config: requires(permission, "create"),
      },
      async (request, reply) => {
        const ctx = service.context(app, request, "create");
        const record = await around(request, () => service.create(ctx, bodyOf(request)));
        reply.status(201);
        return { [def.singular]: record };
      },
    );
  }
  if (def.updateSchema && !without.has("update")) {
    app.put(
      `${path}/:id`,
      {
        schema: doc({
          tags,
          summary: `Actualizar ${def.singular}`,
          params: idParams,
          body: withVersion(def.updateSchema),
          wrap: def.singular,
          version: "required",
          current: { key: def.singular, schema: record },
          response: { 200: one },
        }),
        config: requires(permission, "update"),
      },
      async (request, reply) => {
        const ctx = service.context(app, request, "update");
        const record = await around(request, () => service.update(ctx, idOf(request), bodyOf(request)));
        const etag = etagOf(record);
        if (etag) reply.header("etag", etag);
        return { [def.singular]: record };
      },
    );
  }
  if (!without.has("delete")) {
    app.delete(
      `${path}/:id`,
      {
        schema: doc({ tags, summary: `Eliminar ${def.singular}`, params: idParams, response: { 200: one } }),
        config: requires(permission, "delete"),
      },
      async (request) => {
        const ctx = service.context(app, request, "delete");
        return { [def.singular]: await service.remove(ctx, idOf(request)) };
      },
    );
  }
  def.routes?.(app, service);
  return service;
}

/** A list's `meta`: the total and the page answered. */
export const listMeta = z.object({
  total_count: z.number().int(),
  page: z.number().int(),
  per_page: z.union([z.number().int(), z.literal("all")]),
});

/**
 * An update body with the version it was read at (docs/decisions/023): the record's own fields, and
 * lock_version checked by `expectedVersion` with its own message.
 */
export const withVersion = (schema: z.ZodType) =>
  z.intersection(schema, z.object({ lock_version: z.unknown().optional().meta({ description: queryNotes.version }) }));
