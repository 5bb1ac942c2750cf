import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../server/db/schema";
import { decryptSecret, secretKey } from "../../server/http/secrets";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildUser, call, PASSWORD, signIn, signInAs } from "../support/factories";

const SECRET_KEY = "clave-de-prueba-de-al-menos-32-caracteres!!";
let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let operatorUser: { id: number; name: string; email: string };
let financeUser: { id: number };

beforeAll(async () => {
  t = await buildTestApp({ SECRET_KEY });
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  operatorUser = op.user;
  const fi = await signInAs(t.app, "finance");
  finance = fi.api;
  financeUser = fi.user;
});
afterAll(() => t.close());

const newUser = (overrides: Record<string, unknown> = {}) => ({
  user: {
    name: "Núñez Pérez",
    email: `Nuevo${Math.random().toString(36).slice(2, 8)}@Prueba.MX`,
    operator_role: true,
    password: "contraseña-1",
    password_confirmation: "contraseña-1",
    ...overrides,
  },
});

describe("users", () => {
  it("creates a user with an Argon2id password, never exposing digests or tokens", async () => {
    const body = newUser({ can_chat: true });
    const res = await admin.post("/api/v1/users", body);
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({
      name: "Núñez Pérez",
      email: body.user.email.toLowerCase(),
      operator_role: true,
      can_chat: true,
    });
    expect(res.body.user.employee).toBeNull();
    expect(res.body.user.has_cloud_token).toBe(false);
    for (const key of ["password", "password_confirmation", "password_digest", "cloud_token_encrypted", "password_changed_at"]) {
      expect(res.body.user).not.toHaveProperty(key);
    }
    const [row] = await t.app.db.db.select().from(users).where(eq(users.id, res.body.user.id));
    expect(row.password_digest).toMatch(/^\$argon2id\$/);
    await expect(signIn(t.app, body.user.email.toLowerCase(), "contraseña-1")).resolves.toBeTruthy();
    const list = await admin.get("/api/v1/users?per_page=all");
    expect(JSON.stringify(list.body)).not.toMatch(/password_digest|cloud_token_encrypted|argon2/);
  });

  it("answers 422 per field in Spanish: name, email, password, confirmation", async () => {
    const res = await admin.post("/api/v1/users", {
      user: { name: "", email: "no-es-correo", password: "corta", password_confirmation: "otra" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toEqual(["es obligatorio"]);
    expect(res.body.errors.email).toEqual(["no es un correo válido"]);
    expect(res.body.errors.password).toEqual(["es demasiado corto (mínimo 8 caracteres)"]);
    const missing = await admin.post("/api/v1/users", { user: { name: "Sin clave", email: "sinclave@prueba.mx" } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.password).toEqual(["es obligatoria"]);
    const mismatch = await admin.post("/api/v1/users", newUser({ password_confirmation: "diferente-1" }));
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password_confirmation: ["no coincide con la contraseña"] });
  });

  it("keeps e-mails unique without regard to case", async () => {
    const body = newUser({ email: "duplicado@prueba.mx" });
    expect((await admin.post("/api/v1/users", body)).status).toBe(201);
    const dup = await admin.post("/api/v1/users", newUser({ email: "DUPLICADO@Prueba.mx" }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors.email).toEqual(["ya está en uso"]);
    const other = (await admin.post("/api/v1/users", newUser())).body.user;
    const clash = await admin.put(`/api/v1/users/${other.id}`, { user: { email: "Duplicado@prueba.MX" } });
    expect(clash.status).toBe(422);
    expect(clash.body.errors.email).toEqual(["ya está en uso"]);
  });

  it("updates without a password (blank means unchanged) and checks the confirmation when one comes", async () => {
    const created = (await admin.post("/api/v1/users", newUser())).body.user;
    const [before] = await t.app.db.db.select().from(users).where(eq(users.id, created.id));
    const res = await admin.put(`/api/v1/users/${created.id}`, {
      user: { name: "Renombrado", password: "", password_confirmation: "" },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe("Renombrado");
    const [after] = await t.app.db.db.select().from(users).where(eq(users.id, created.id));
    expect(after.password_digest).toBe(before.password_digest);
    const bad = await admin.put(`/api/v1/users/${created.id}`, {
      user: { password: "nueva-clave-1", password_confirmation: "x" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.password_confirmation).toEqual(["no coincide con la contraseña"]);
    const short = await admin.put(`/api/v1/users/${created.id}`, { user: { password: "corta", password_confirmation: "corta" } });
    expect(short.body.errors.password).toEqual(["es demasiado corto (mínimo 8 caracteres)"]);
  });

  it("a password change ends the user's other sessions, keeping the one that made it", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const first = await signIn(t.app, user.email);
    const second = await signIn(t.app, user.email);
    const res = await first.put(`/api/v1/users/${user.id}`, {
      user: { password: "otra-clave-9", password_confirmation: "otra-clave-9" },
    });
    expect(res.status).toBe(200);
    expect((await first.get(`/api/v1/users/${user.id}`)).status).toBe(200);
    expect((await second.get(`/api/v1/users/${user.id}`)).status).toBe(401);
    await expect(signIn(t.app, user.email, "otra-clave-9")).resolves.toBeTruthy();

    // Changed by an administrator: every session of that user ends.
    const target = await buildUser(t.app.db.db, "operator");
    const theirs = await signIn(t.app, target.user.email);
    await admin.put(`/api/v1/users/${target.user.id}`, {
      user: { password: "cambiada-por-admin", password_confirmation: "cambiada-por-admin" },
    });
    expect((await theirs.get(`/api/v1/users/${target.user.id}`)).status).toBe(401);
    const left = await t.app.db.db.select().from(sessions).where(eq(sessions.user_id, target.user.id));
    expect(left).toHaveLength(0);
  });

  it("filters by role (absent = Todos), searches name and e-mail without accents, sorts whitelisted columns", async () => {
    await admin.post("/api/v1/users", newUser({ name: "Ángela Finanzas", operator_role: false, finance_role: true }));
    const fin = await admin.get("/api/v1/users?by_role=finance_role&per_page=all");
    expect(fin.status).toBe(200);
    expect(fin.body.users.length).toBeGreaterThanOrEqual(2);
    expect(fin.body.users.every((u: { finance_role: boolean }) => u.finance_role)).toBe(true);
    const quoted = await admin.get(`/api/v1/users?by_role=${encodeURIComponent('"administrator_role"')}&per_page=all`);
    expect(quoted.body.users.every((u: { administrator_role: boolean }) => u.administrator_role)).toBe(true);
    const all = await admin.get("/api/v1/users?per_page=all");
    expect(all.body.meta.total_count).toBeGreaterThan(fin.body.meta.total_count);
    expect((await admin.get("/api/v1/users?by_role=")).status).toBe(200);
    const bad = await admin.get("/api/v1/users?by_role=superuser");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.by_role).toEqual(["no es válido"]);

    const search = await admin.get("/api/v1/users?search=ANGELA");
    expect(search.body.users.map((u: { name: string }) => u.name)).toEqual(["Ángela Finanzas"]);
    const byMail = await admin.get(`/api/v1/users?search=${encodeURIComponent(operatorUser.email)}`);
    expect(byMail.body.users.map((u: { id: number }) => u.id)).toEqual([operatorUser.id]);

    const sorted = await admin.get("/api/v1/users?by_column[column]=email&by_column[order]=desc&per_page=all");
    const emails = sorted.body.users.map((u: { email: string }) => u.email);
    expect(emails).toEqual([...emails].sort().reverse());
    expect((await admin.get("/api/v1/users?by_column[column]=password_digest")).status).toBe(422);
  });

  it("shows the user's employee and whether a cloud token is stored", async () => {
    const res = await admin.get(`/api/v1/users/${operatorUser.id}`);
    expect(res.status).toBe(200);
    expect(res.body.user.employee).toMatchObject({ name: operatorUser.name, is_active: true });
    expect(typeof res.body.user.employee.id).toBe("number");
    expect(res.body.user.has_cloud_token).toBe(false);
  });

  it("lets a non-administrator see only themselves and change only their own azure_token", async () => {
    expect((await operator.get("/api/v1/users")).status).toBe(403);
    expect((await finance.get("/api/v1/users")).status).toBe(403);
    expect((await operator.get(`/api/v1/users/${operatorUser.id}`)).status).toBe(200);
    expect((await operator.get(`/api/v1/users/${financeUser.id}`)).status).toBe(404);
    expect((await finance.get(`/api/v1/users/${operatorUser.id}`)).status).toBe(404);

    const own = await operator.put(`/api/v1/users/${operatorUser.id}`, { user: { azure_token: "pat-123" } });
    expect(own.status).toBe(200);
    // Write-only: the answer says a token is saved, never which.
    expect(own.body.user.azure_token).toBeUndefined();
    expect(own.body.user.has_azure_token).toBe(true);

    // The edit form sends the whole record back: unchanged fields are fine.
    const whole = (await operator.get(`/api/v1/users/${operatorUser.id}`)).body.user;
    const echoed = await operator.put(`/api/v1/users/${operatorUser.id}`, {
      user: { ...whole, azure_token: "pat-456", password: "" },
    });
    expect(echoed.status).toBe(200);
    expect(echoed.body.user.has_azure_token).toBe(true);
    expect(JSON.stringify(echoed.body)).not.toContain("pat-456");

    for (const change of [
      { administrator_role: true },
      { can_chat: true },
      { name: "Otro nombre" },
      { email: "otro@prueba.mx" },
      { password: "nueva-clave-1", password_confirmation: "nueva-clave-1" },
    ]) {
      const res = await operator.put(`/api/v1/users/${operatorUser.id}`, { user: { azure_token: "pat-789", ...change } });
      expect(res.status, JSON.stringify(change)).toBe(403);
      expect(res.body).toEqual({ error: "Error de Permisos" });
    }
    const [row] = await t.app.db.db.select().from(users).where(eq(users.id, operatorUser.id));
    expect(row).toMatchObject({ administrator_role: false, can_chat: false });
    expect(decryptSecret(row.azure_token as string, secretKey(t.app.config))).toBe("pat-456");

    expect((await operator.put(`/api/v1/users/${financeUser.id}`, { user: { azure_token: "x" } })).status).toBe(404);
    expect((await operator.post("/api/v1/users", newUser())).status).toBe(403);
    expect((await finance.delete(`/api/v1/users/${operatorUser.id}`)).status).toBe(403);
  });

  it("lets an administrator grant roles and can_chat", async () => {
    const created = (await admin.post("/api/v1/users", newUser())).body.user;
    const res = await admin.put(`/api/v1/users/${created.id}`, { user: { administrator_role: true, can_chat: "true" } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ administrator_role: true, can_chat: true });
  });

  it("stores the calendar token encrypted (AES-256-GCM) for the signed-in user", async () => {
    const res = await operator.post("/api/v1/users/save_cloud_token", { token: "ya29.token-secreto", google_id: "g-123" });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: operatorUser.id, has_cloud_token: true, google_id: "g-123" });
    expect(JSON.stringify(res.body)).not.toContain("token-secreto");
    const [row] = await t.app.db.db.select().from(users).where(eq(users.id, operatorUser.id));
    expect(row.cloud_token_encrypted).not.toContain("token-secreto");
    expect(decryptSecret(row.cloud_token_encrypted as string, secretKey(t.app.config))).toBe("ya29.token-secreto");
    const wrapped = await finance.post("/api/v1/users/save_cloud_token", { user: { token: "otro" } });
    expect(wrapped.status).toBe(200);
    const empty = await finance.post("/api/v1/users/save_cloud_token", { token: "" });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.token).toEqual(["es obligatorio"]);
    expect((await call(t.app, "POST", "/api/v1/users/save_cloud_token", { token: "x" })).status).toBe(401);
  });

  it("deletes a user without an employee and refuses one with an employee", async () => {
    const free = (await admin.post("/api/v1/users", newUser())).body.user;
    expect((await admin.delete(`/api/v1/users/${free.id}`)).status).toBe(200);
    expect((await admin.get(`/api/v1/users/${free.id}`)).status).toBe(404);
    const refused = await admin.delete(`/api/v1/users/${operatorUser.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["No se puede eliminar: el usuario tiene un empleado vinculado"]);
  });
});

describe("secret key", () => {
  it("is generated once in DATA_DIR/secret.key with mode 0600 and reused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-secret-"));
    try {
      const config = { dataDir: path.join(dir, "data"), SECRET_KEY: undefined };
      const key = secretKey(config);
      const file = path.join(config.dataDir, "secret.key");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(key).toHaveLength(32);
      expect(Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64").equals(key)).toBe(true);
      expect(secretKey(config).equals(key)).toBe(true);
      expect(secretKey({ dataDir: config.dataDir, SECRET_KEY: SECRET_KEY }).equals(key)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("rejects a tampered value", async () => {
    const { encryptSecret } = await import("../../server/http/secrets");
    const key = secretKey({ dataDir: "/nonexistent", SECRET_KEY });
    const value = encryptSecret("hola", key);
    expect(decryptSecret(value, key)).toBe("hola");
    expect(decryptSecret(`${value.slice(0, -2)}AA`, key)).toBeNull();
    expect(PASSWORD).toBeTruthy();
  });
});
