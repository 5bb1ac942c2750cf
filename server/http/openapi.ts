/**
 * The API's contract, declared once per route with zod (docs/decisions/040-declared-contract.md): what a
 * route reads (params, querystring, If-Match, body) is validated by the compiler below before the
 * handler runs, with the Spanish messages of the shared schemas and the error shapes of SPEC §8; what it
 * answers is serialised from its schema (fast-json-stringify) and published in /api/docs as OpenAPI 3.1.
 */

import { isDeepStrictEqual } from "node:util";
import fastJson from "fast-json-stringify";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import { createJsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { RULE_CODES } from "../../src/core/activityRules";
import { notFound, ValidationError, zodFieldErrors, zodRuleIssues } from "./errors";

/* ---------- answers every route may give (SPEC §8) ---------- */

export const errorAnswer = z.looseObject({ error: z.string() }).describe("Un mensaje en español");
export const validationAnswer = z
  .looseObject({
    errors: z.record(z.string(), z.array(z.string())),
    issues: z
      .array(
        z.object({
          item: z.string().optional().describe("El elemento del guardado de la semana («0», «updates.1», «deletions.0»)"),
          code: z.enum(RULE_CODES).describe("La regla, con un código estable"),
          field: z.string(),
          message: z.string(),
        }),
      )
      .optional()
      .describe("Las reglas de las actividades que se rompieron, con su código"),
  })
  .describe("Errores por campo (422); los generales van en `base`");

const FAILURES = {
  400: errorAnswer.describe("Solicitud mal formada (p. ej. un cuerpo que no es JSON)"),
  401: errorAnswer.describe("Sin sesión"),
  403: errorAnswer.describe("Su rol no permite esta acción"),
  404: errorAnswer.describe("No existe o no es suyo"),
  422: validationAnswer,
} as const;

/** An answer that is not JSON (a CSV, an .ics, a script), by its media type. */
export const fileAnswer = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

/** A redirect (302) and where it goes. */
export const redirectAnswer = (description: string) => z.null().describe(description);

/** An answer with no body. */
export const noContent = z.null().describe("Sin contenido");

/* ---------- wrapped bodies ---------- */

/**
 * Bodies sent as `{<key>: {...}}`; the bare object is accepted too (lenient API clients). The compiler
 * reads a bare body as if wrapped, and field errors name the inner field (`name`, not `client.name`).
 */
const WRAPPED = new WeakMap<z.ZodType, string>();
export function wrapped<T extends z.ZodType>(key: string, schema: T) {
  const outer = z.object({ [key]: schema } as { [k: string]: T });
  WRAPPED.set(outer, key);
  return outer;
}

/* ---------- the version of a write (docs/decisions/023) ---------- */

const ifMatchHeaders = (required: boolean) =>
  z.looseObject({
    "if-match": z
      .string()
      .optional()
      .describe(
        'La versión leída (ETag de GET, p. ej. "3"); también puede ir como lock_version en el cuerpo.' +
          (required ? " Obligatoria (en la cabecera o en el cuerpo)." : " Opcional: si llega, se comprueba."),
      ),
  });

/** Descriptions of the query parameters every list shares. */
export const queryNotes = {
  filter: "Filtro: un valor, una lista separada por comas o un arreglo JSON; vacío no filtra.",
  sort: "Columna por la que se ordena (una de las listadas).",
  version: "La versión leída (alternativa a If-Match).",
};

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export interface RouteContract {
  tags: string[];
  summary: string;
  description?: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** The body's wrapping key: `{<wrap>: body}` (the bare body is accepted too). */
  wrap?: string;
  /**
   * The handler reads the body itself, because its answer to a bad one differs from a 422 by field (a
   * sign-in answers 401 and names no field): the body is documented, not validated before the handler.
   */
  bodyReadByHandler?: true;
  /** Answers by status; 2xx ones are serialised from their schema. 401/403/404/422 are added. */
  response?: Record<number, z.ZodType | ReturnType<typeof fileAnswer>>;
  /**
   * The write is taken at a version (optimistic locking, docs/decisions/023): "required" for updates (428
   * without one), "optional" for actions that check it when it comes.
   */
  version?: "required" | "optional";
  /** Anyone may call it (no session): its operation says so with an empty `security`. */
  public?: boolean;
  /** The record a 409 carries as it is now (`{error, <key>: record}`), for writes taken at a version. */
  current?: { key: string; schema: z.ZodType };
}

/** A route's schema from its contract (Fastify reads params, querystring, headers, body and response). */
export function doc(contract: RouteContract): FastifySchema {
  const schema: FastifySchema & Record<string, unknown> = { tags: contract.tags, summary: contract.summary };
  const notes: string[] = contract.description ? [contract.description] : [];
  const response: Record<number, unknown> = { ...FAILURES, ...(contract.response ?? { 200: okAnswer }) };
  if (contract.version) {
    const required = contract.version === "required";
    schema.headers = ifMatchHeaders(required);
    if (required) notes.push("Sin versión responde 428.");
    notes.push("Si otro guardado llegó antes, responde 409 con el registro actual y no escribe nada.");
    response[409] = z
      .looseObject({
        error: z.string(),
        ...(contract.current ? { [contract.current.key]: contract.current.schema.optional() } : {}),
      })
      .describe("Otro guardado llegó antes: el registro actual va en la respuesta");
    if (required) response[428] = errorAnswer.describe("Falta la versión leída");
  }
  if (contract.public) {
    schema.security = [];
    delete response[403];
    response[401] = errorAnswer.describe("Credenciales inválidas");
  }
  if (notes.length) schema.description = notes.join(" ");
  if (contract.params) schema.params = contract.params;
  if (contract.querystring) schema.querystring = contract.querystring;
  if (contract.body) {
    const body = contract.wrap ? wrapped(contract.wrap, contract.body) : contract.body.clone();
    if (contract.bodyReadByHandler) UNCHECKED.add(body);
    schema.body = body;
  }
  schema.response = response;
  return schema;
}

/** The answer of a route that says only that it worked. */
export const okAnswer = z.looseObject({}).describe("Hecho");

/* ---------- the compilers ---------- */

const isZod = (schema: unknown): schema is z.ZodType => schema instanceof z.ZodType;
/** Bodies documented but read by their handler (RouteContract.bodyReadByHandler). */
const UNCHECKED = new WeakSet<z.ZodType>();

/**
 * Validates a request's part with its zod schema; the parsed value (coerced, defaults applied) is what the
 * handler reads. A bad path parameter is a record that does not exist (404); anything else a 422 by field.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (!isZod(schema) || UNCHECKED.has(schema)) return (data) => ({ value: data });
  const key = WRAPPED.get(schema);
  return (data) => {
    let input = data;
    if (key) {
      // Anything but an object (a text, null, an array) is read as an empty one: its fields are missing.
      const isObject = (value: unknown) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
      const raw = (isObject(data) ? data : {}) as Record<string, unknown>;
      input = isObject(raw[key]) ? raw : { [key]: raw };
    }
    const parsed = schema.safeParse(input);
    if (parsed.success) return { value: parsed.data };
    if (httpPart === "params") return { error: notFound() };
    const errors = zodFieldErrors(parsed.error);
    if (httpPart === "querystring") {
      // A query parameter answers by its own name (`by_status`, not `by_status.0`), with its first message.
      for (const field of Object.keys(errors)) {
        const name = field.split(".")[0];
        errors[name] ??= errors[field];
        if (name !== field) delete errors[field];
        errors[name] = errors[name].slice(0, 1);
      }
    }
    if (key) {
      for (const field of Object.keys(errors)) {
        const inner = field === key ? "base" : field.startsWith(`${key}.`) ? field.slice(key.length + 1) : field;
        if (inner !== field) {
          errors[inner] = [...(errors[inner] ?? []), ...(errors[field] ?? [])];
          delete errors[field];
        }
      }
    }
    // A body that breaks a rule with a code (src/core/activityRules.ts) answers the issues beside the errors.
    const ruled = httpPart === "body" ? zodRuleIssues(parsed.error) : [];
    const unwrapped = (field: string) =>
      !key ? field : field === key ? "base" : field.startsWith(`${key}.`) ? field.slice(key.length + 1) : field;
    const issues = ruled.some((i) => i.code !== "invalid") ? ruled.map((i) => ({ ...i, field: unwrapped(i.field) })) : undefined;
    return { error: new ValidationError(errors, issues) };
  };
};

/**
 * A JSON Schema of an answer, as fast-json-stringify reads it (draft 7). `required` is left to the
 * documentation and the contract tests: a missing key must never turn an answer into a 500.
 */
const forSerializer = (schema: z.ZodType) =>
  forWriting(z.toJSONSchema(schema, { io: "output", target: "draft-7", unrepresentable: "any" }));

/**
 * The schema as the serialiser should read it: no `required`, no closed objects, no `format` (a Date is written as
 * JSON.stringify writes it, whatever the format says), and «a text or null» as one type list rather than
 * an anyOf, which fast-json-stringify would validate value by value (and refuse a Date as a text).
 */
function forWriting(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forWriting);
  if (!node || typeof node !== "object") return node;
  const entries = Object.entries(node).filter(
    ([key, value]) => !(key === "required" && Array.isArray(value)) && !(key === "format" && typeof value === "string"),
  );
  const out = Object.fromEntries(entries.map(([key, value]) => [key, forWriting(value)])) as Record<string, unknown>;
  // A key the schema does not declare is written too: the contract test (which reads the declared
  // `additionalProperties: false`) is where it must be found, never by a field vanishing from a screen.
  if (out.additionalProperties === false) out.additionalProperties = true;
  const anyOf = out.anyOf as Array<Record<string, unknown>> | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullable = anyOf.findIndex((s) => s.type === "null" && Object.keys(s).length === 1);
    const other = anyOf[1 - nullable];
    if (nullable >= 0 && typeof other.type === "string" && ["string", "number", "integer", "boolean"].includes(other.type)) {
      const { anyOf: _, ...rest } = out;
      return { ...rest, ...other, type: [other.type, "null"] };
    }
  }
  return out;
}

/**
 * 2xx answers are written by fast-json-stringify from their schema, compiled on first use (a test app
 * built many times compiles only what it calls). Other answers (errors, whose bodies may carry the record
 * as it is now) go through JSON.stringify.
 */
export const serializerCompiler = ({
  schema,
  httpStatus,
  check = process.env.NODE_ENV === "test",
}: {
  schema: unknown;
  httpStatus?: string;
  /**
   * Under test, every answer is also written by JSON.stringify and the two must say the same: a value
   * its schema would coerce (a decimal declared whole, a text declared a number) fails the test that
   * sent it, instead of reaching a client changed.
   */
  check?: boolean;
}) => {
  const status = Number(httpStatus);
  if (!isZod(schema) || schema === okAnswer || !(status >= 200 && status < 300)) return (data: unknown) => JSON.stringify(data);
  let write: ((data: unknown) => string) | undefined;
  let warned = false;
  return (data: unknown) => {
    write ??= fastJson(forSerializer(schema) as unknown as Parameters<typeof fastJson>[0]);
    let written: string;
    try {
      written = write(data);
    } catch (error) {
      if (check) throw new ContractMismatch((error as Error).message);
      // An answer its schema does not describe is still sent whole, never a 500; the contract test is
      // where such a difference must be found.
      if (!warned) process.emitWarning(`Respuesta fuera de su esquema: ${(error as Error).message}`, "SiaContract");
      warned = true;
      return JSON.stringify(data);
    }
    if (check && !isDeepStrictEqual(JSON.parse(written), JSON.parse(JSON.stringify(data)))) {
      throw new ContractMismatch(`${written.slice(0, 300)} ≠ ${JSON.stringify(data).slice(0, 300)}`);
    }
    return written;
  };
};

/** An answer its declared schema would change (only under test: `check`). */
export class ContractMismatch extends Error {
  constructor(detail: string) {
    super(`La respuesta no coincide con su esquema declarado: ${detail}`);
  }
}

/* ---------- the published document ---------- */

const words = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)));

/**
 * An operation's id from its method and path, unique and stable: `get` + `/clients/:id/audit_logs` →
 * `getClientsIdAuditLogs`. Routes may name their own.
 */
export function operationIdOf(method: string, url: string) {
  const path = url.replace(/^\/api\/v1/, "").replace(/:([A-Za-z_]+)/g, "by_$1");
  return words(`${method.toLowerCase()} ${path}`).join("");
}

const zodTransform = createJsonSchemaTransform({
  skipList: [],
  zodToJsonConfig: { unrepresentable: "any" } as never,
});

/** @fastify/swagger's transform: zod to JSON Schema, plus each operation's id. */
export const transform: typeof zodTransform = (document) => {
  const out = zodTransform(document);
  const { route } = document as unknown as { route: { method: string | string[] } };
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  const schema = (out.schema ?? {}) as Record<string, unknown>;
  if (!schema.hide && !schema.operationId) schema.operationId = operationIdOf(method, out.url);
  // A public route (sign-in, its provider's settings) is called without a session.
  if ((document as unknown as { route: { config?: { public?: boolean } } }).route.config?.public) schema.security = [];
  return { ...out, schema } as ReturnType<typeof zodTransform>;
};
