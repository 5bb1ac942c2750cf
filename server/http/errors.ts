/**
 * One error shape for the whole API (ARCHITECTURE.md): 401/403/404 as {error}, 422 as
 * {errors: {field: [messages]}} with base errors under `base`. Database constraint violations caused by
 * a user's input become 422s here, so no user mistake ever answers 500.
 */
import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError, type z } from "zod";
import { type ItemIssue, isRuleCode, type RuleCode, type RuleIssue } from "../../src/core/activityRules";
import { accessMessages, databaseMessages, fairShareMessages, folderMessages, messages } from "../../src/core/messages";
import { HashingBusy } from "../auth/passwords";

export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}
/** A refusal by rule (src/core/activityRules.ts); `item` names the week save's item ("0", "updates.1"). */
export type AnsweredIssue = ItemIssue;

export class ValidationError extends HttpError {
  /**
   * `issues`, when given, travel beside SPEC §8's `errors`: each refusal with its rule's code and its
   * message without any prefix, so a screen acts on the code, never on the text.
   */
  constructor(
    readonly errors: FieldErrors | Record<string, unknown>,
    readonly issues?: AnsweredIssue[],
  ) {
    super(422, "Validation failed", issues ? { errors, issues } : { errors });
  }
  /** A 422 of rule issues: SPEC §8's {field: [messages]} and the issues with their codes. */
  static ofIssues(issues: RuleIssue[]) {
    const errors: FieldErrors = {};
    for (const { field, message } of issues)
      if (!errors[field]?.includes(message)) errors[field] = [...(errors[field] ?? []), message];
    return new ValidationError(errors, issues);
  }
  static rule(code: RuleCode, message: string, field = "base") {
    return ValidationError.ofIssues([{ code, field, message }]);
  }
  static base(message: string) {
    return new ValidationError({ base: [message] });
  }
  static field(field: string, message: string) {
    return new ValidationError({ [field]: [message] });
  }
}
export const unauthorized = () => new HttpError(401, messages.unauthenticated);
export const forbidden = () => new HttpError(403, messages.forbidden);
export const notFound = () => new HttpError(404, messages.notFound);

/** Zod issues → {field: [messages]}, first path segment as the field name. */
export function zodFieldErrors(error: ZodError, prefix?: string): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "base";
    const field = prefix ? `${prefix}.${key}` : key;
    // Two checks of one field that fail alike (a format and a range) say it once.
    if (!out[field]?.includes(issue.message)) out[field] = [...(out[field] ?? []), issue.message];
  }
  return out;
}

/** Zod issues as rule issues: the code a schema rule declared in its params, else "invalid". */
export function zodRuleIssues(error: ZodError): RuleIssue[] {
  const out: RuleIssue[] = [];
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "base";
    const rule = (issue as { params?: { rule?: unknown } }).params?.rule;
    const code = isRuleCode(rule) ? rule : "invalid";
    if (!out.some((x) => x.field === field && x.message === issue.message)) out.push({ code, field, message: issue.message });
  }
  return out;
}

/** A value parsed with a shared schema, or a 422 naming each field that failed (under `prefix.` if given). */
export function parse<T extends z.ZodType>(schema: T, value: unknown, prefix?: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error, prefix));
  return parsed.data;
}

interface PgError {
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
  column?: string;
  message?: string;
}

function pgErrorOf(error: unknown): PgError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as PgError & { cause?: unknown };
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return undefined;
}

function keyColumn(detail?: string): string | undefined {
  const match = detail?.match(/Key \((?:lower\()?([a-z_]+)/i);
  return match?.[1];
}

/** Node socket errors of a lost or refused connection to PostgreSQL. */
const CONNECTION_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTCONN"]);
/** Messages `pg` throws without a code when the server goes away under it. */
const CONNECTION_MESSAGES =
  /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Client was closed/i;

/**
 * True when the database cannot be reached (server down, restarting, connection cut): the request is not
 * at fault and a retry will do, so it answers 503 with Retry-After instead of a 500. SQLSTATE
 * class 08 (connection exception) and 57P01–57P03 (administrator shutdown, crash, cannot connect now).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    const code = typeof candidate.code === "string" ? candidate.code : "";
    if (CONNECTION_ERRNOS.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code)) return true;
    if (typeof candidate.message === "string" && CONNECTION_MESSAGES.test(candidate.message)) return true;
    // net.connect to a dual-stack host rejects with an AggregateError of the attempts.
    if (Array.isArray(candidate.errors) && candidate.errors.some((e) => isDatabaseUnavailable(e))) return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * Unique indexes on expressions, whose violation names no plain column: the field and the message the
 * service's own check answers, so two racing saves get the same 422 as one that came second.
 */
const UNIQUE_INDEXES: Record<string, { field: string; message: string }> = {
  invoices_folio_unique: { field: "folio", message: messages.folioTaken },
  client_groups_name_normal_unique: { field: "name", message: accessMessages.groupNameTaken },
  client_groups_name_unique: { field: "name", message: accessMessages.groupNameTaken },
};

/** A database error caused by the request's data, as a 422; undefined when it is a real fault. */
export function databaseValidationError(error: unknown): ValidationError | undefined {
  const pgError = pgErrorOf(error);
  if (!pgError) return undefined;
  switch (pgError.code) {
    case "23505": {
      const known = pgError.constraint ? UNIQUE_INDEXES[pgError.constraint] : undefined;
      if (known) return ValidationError.field(known.field, known.message);
      const column = keyColumn(pgError.detail);
      // One folder, one record (the drive_root unique indexes): two saves raced for one folder.
      if (column === "drive_root_id" || /_drive_root_unique$/.test(pgError.constraint ?? ""))
        return ValidationError.field("drive_root_id", folderMessages.taken);
      return ValidationError.field(column ?? "base", messages.alreadyTaken);
    }
    case "23001":
    case "23503": {
      const referencing = pgError.detail?.match(/referenced from table "([a-z_]+)"/)?.[1];
      if (referencing || /update or delete/.test(pgError.message ?? "")) {
        const label = (referencing && databaseMessages.tables[referencing]) || databaseMessages.otherRecords;
        return ValidationError.base(messages.deleteRefused(databaseMessages.inUseIn(label)));
      }
      return ValidationError.field(keyColumn(pgError.detail) ?? "base", messages.invalidReference);
    }
    case "23P01":
      return ValidationError.rule("overlap", messages.activityConflict);
    case "23514":
    case "23502":
      return ValidationError.field(pgError.column ?? "base", messages.invalidValue);
    case "22P02":
    case "22007":
    case "22008":
    case "22003":
    case "22001":
    case "22021": // a NUL or invalid byte in text
      return ValidationError.base(messages.invalidValue);
    default:
      return undefined;
  }
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      const body = error.body ?? { error: error.message };
      return reply.status(error.statusCode).send(body);
    }
    if (error instanceof ZodError) {
      return reply.status(422).send({ errors: zodFieldErrors(error) });
    }
    if (error instanceof HashingBusy) {
      return reply
        .status(429)
        .header("retry-after", String(error.retryAfterSeconds))
        .send({ error: fairShareMessages.passwordBusy });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply.status(503).header("retry-after", "5").send({ error: messages.databaseUnavailable });
    }
    const dbError = databaseValidationError(error);
    if (dbError) return reply.status(422).send(dbError.body);
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === "FST_ERR_CTP_BODY_TOO_LARGE" || error.code === "FST_REQ_FILE_TOO_LARGE") {
      return reply.status(413).send({ error: messages.bodyTooLarge });
    }
    if (status === 429) return reply.status(429).send({ error: messages.tooManyAttempts });
    if (status >= 400 && status < 500) {
      const message =
        error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
        error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
        error instanceof SyntaxError
          ? messages.invalidJson
          : status === 415
            ? messages.unsupportedMediaType
            : messages.invalidValue;
      return reply.status(status).send({ error: message });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ error: messages.unexpected });
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: messages.routeNotFound }));
}
