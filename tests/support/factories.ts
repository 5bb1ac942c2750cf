/** Record builders for tests: each returns the inserted row; overrides win over the defaults. */
import type { FastifyInstance, InjectOptions } from "fastify";
import { hashPassword } from "../../server/auth/passwords";
import type { Db } from "../../server/db/client";
import { client_groups, clients, employees, products, users, workspaces } from "../../server/db/schema";

export type RoleName = "admin" | "operator" | "finance";
export const PASSWORD = "secreto-de-prueba";
let seq = 0;
const next = () => ++seq + Math.floor(Math.random() * 1e6);

let cachedDigest: Promise<string> | undefined;
const digest = () => (cachedDigest ??= hashPassword(PASSWORD));

export async function buildUser(db: Db, role: RoleName, overrides: Partial<typeof users.$inferInsert> = {}, withEmployee = true) {
  const n = next();
  const [user] = await db
    .insert(users)
    .values({
      name: `Usuario ${role} ${n}`,
      email: `${role}${n}@prueba.mx`,
      password_digest: await digest(),
      administrator_role: role === "admin",
      operator_role: role === "operator",
      finance_role: role === "finance",
      ...overrides,
    })
    .returning();
  const employee = withEmployee
    ? (
        await db
          .insert(employees)
          .values({ name: user.name, employee_code: `E${n}`, user_id: user.id })
          .returning()
      )[0]
    : null;
  return { user, employee };
}

export async function buildClientGroup(db: Db, name = `Grupo ${next()}`) {
  return (await db.insert(client_groups).values({ name }).returning())[0];
}
export async function buildProduct(db: Db, overrides: Partial<typeof products.$inferInsert> = {}) {
  const n = next();
  return (
    await db
      .insert(products)
      .values({ product_code: `P${n}`, name: `Producto ${n}`, ...overrides })
      .returning()
  )[0];
}
export async function buildClient(db: Db, overrides: Partial<typeof clients.$inferInsert> = {}) {
  const n = next();
  return (
    await db
      .insert(clients)
      .values({ name: `Cliente ${n}`, client_code: String(5000 + n), ...overrides })
      .returning()
  )[0];
}
export async function buildWorkspace(db: Db, name = `Espacio ${next()}`) {
  return (await db.insert(workspaces).values({ name }).returning())[0];
}

/** An API client signed in as a user (Bearer token), over fastify.inject. */
export interface ApiClient {
  token: string;
  request(
    method: InjectOptions["method"],
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown>; text: string }>;
  get(url: string): ReturnType<ApiClient["request"]>;
  post(url: string, payload?: unknown): ReturnType<ApiClient["request"]>;
  put(url: string, payload?: unknown): ReturnType<ApiClient["request"]>;
  delete(url: string): ReturnType<ApiClient["request"]>;
}

export async function call(
  app: FastifyInstance,
  method: InjectOptions["method"],
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await app.inject({ method, url, payload: payload as InjectOptions["payload"], headers });
  let body: any = null;
  try {
    body = response.json();
  } catch {
    body = null;
  }
  return { status: response.statusCode, body, headers: response.headers as Record<string, unknown>, text: response.body };
}

/** The ETag of a resource record about to be updated, unless the payload already carries its lock_version. */
export async function currentEtag(app: FastifyInstance, url: string, headers: Record<string, string>, payload?: unknown) {
  // The record itself, or an action on it (PUT workspaces/3/toggle_notification): the record's version.
  const record = /^(\/api\/v1\/[a-z_]+\/\d+)(\/[a-z_]+(\.json)?)?$/.exec(url)?.[1];
  if (!record) return undefined;
  if (payload && typeof payload === "object" && JSON.stringify(payload).includes('"lock_version"')) return undefined;
  const response = await app.inject({ method: "GET", url: record, headers });
  const etag = response.headers.etag;
  return typeof etag === "string" ? etag : undefined;
}

export async function signIn(app: FastifyInstance, email: string, password = PASSWORD): Promise<ApiClient> {
  const response = await call(app, "POST", "/api/v1/sessions", { email, password });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
  const token = response.body.token as string;
  const request: ApiClient["request"] = (method, url, payload) =>
    call(app, method, url, payload, { authorization: `Bearer ${token}` });
  return {
    token,
    request,
    get: (url) => request("GET", url),
    post: (url, payload) => request("POST", url, payload),
    // Like a real client, an update says which version it read (the record's ETag); `request("PUT", …)`
    // sends exactly what it is given.
    put: async (url, payload) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      const etag = await currentEtag(app, url, headers, payload);
      if (etag) headers["if-match"] = etag;
      return call(app, "PUT", url, payload, headers);
    },
    delete: (url) => request("DELETE", url),
  };
}

export async function signInAs(app: FastifyInstance, role: RoleName) {
  const { user, employee } = await buildUser(app.db.db, role);
  return { api: await signIn(app, user.email), user, employee };
}
