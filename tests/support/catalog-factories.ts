/** Builders and helpers for the catalog API tests (prospects, products, licences, holidays…). */
import type { FastifyInstance } from "fastify";
import type { Db } from "../../server/db/client";
import { activities, employee_positions, employees, projects, prospects, quotations } from "../../server/db/schema";

let seq = 0;
const next = () => ++seq + Math.floor(Math.random() * 1e6);

export async function buildEmployee(db: Db, overrides: Partial<typeof employees.$inferInsert> = {}) {
  const n = next();
  return (
    await db
      .insert(employees)
      .values({ name: `Empleado ${n}`, employee_code: `EC${n}`, ...overrides })
      .returning()
  )[0];
}
export async function buildPosition(db: Db, name = `Puesto ${next()}`) {
  return (await db.insert(employee_positions).values({ name }).returning())[0];
}
export async function buildProspect(db: Db, overrides: Partial<typeof prospects.$inferInsert> = {}) {
  return (
    await db
      .insert(prospects)
      .values({ name: `Prospecto ${next()}`, ...overrides })
      .returning()
  )[0];
}
export async function buildProject(db: Db, clientId: number, overrides: Partial<typeof projects.$inferInsert> = {}) {
  const n = next();
  return (
    await db
      .insert(projects)
      .values({ project_code: `PRJ-${n}`, name: `Proyecto ${n}`, client_id: clientId, ...overrides })
      .returning()
  )[0];
}
export async function buildQuotation(db: Db, productId: number, prospectId: number | null) {
  return (
    await db
      .insert(quotations)
      .values({ contact_name: "Contacto", product_catalog_id: productId, prospect_id: prospectId })
      .returning()
  )[0];
}
let hour = 0;
/** An activity one hour long, never overlapping another of the same employee. */
export async function buildActivity(db: Db, employeeId: number, overrides: Partial<typeof activities.$inferInsert> = {}) {
  const begins = new Date(Date.UTC(2025, 0, 6, 0, 0) + hour++ * 3_600_000);
  return (
    await db
      .insert(activities)
      .values({
        employee_id: employeeId,
        begins_at: begins,
        ends_at: new Date(begins.getTime() + 3_600_000),
        description: "Actividad",
        action_type: "internal",
        ...overrides,
      })
      .returning()
  )[0];
}

/** A multipart/form-data body built by hand (no extra dependency), for fastify.inject. */
export function multipart(
  file?: { name?: string; filename: string; contentType: string; content: string | Buffer },
  fields: Record<string, string> = {},
) {
  const boundary = `----sia${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? "file"}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** Sends a raw request with a session token. */
export async function rawRequest(
  app: FastifyInstance,
  token: string,
  method: "GET" | "PUT" | "POST",
  url: string,
  payload?: Buffer | string,
  headers: Record<string, string> = {},
) {
  const response = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}`, ...headers } });
  let body: any = null;
  try {
    body = response.json();
  } catch {
    body = null;
  }
  return { status: response.statusCode, body, headers: response.headers, text: response.body };
}

/** PUT activities/import_activities_csv for the week of `week`: a CSV file as the timesheet uploads it. */
export function importWeekCsv(
  app: FastifyInstance,
  token: string,
  week: string,
  content: Buffer,
  filename = "semana.csv",
  contentType = "application/vnd.ms-excel",
) {
  const body = multipart({ filename, contentType, content });
  return rawRequest(app, token, "PUT", `/api/v1/activities/import_activities_csv?date=${week}`, body.payload, body.headers);
}
