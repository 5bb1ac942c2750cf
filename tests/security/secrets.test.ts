/**
 * Secrets are write-only. The users' Azure DevOps and calendar tokens are stored encrypted and no
 * answer of any route carries them (plain or encrypted), nor a push subscription's auth secret, nor the
 * VAPID private key, nor the installation's own secrets from the
 * environment (Azure DevOps PAT, Google client secret, SMTP password, SECRET_KEY): every GET route of
 * the app without a path parameter, every user's record, the current session, the writes that save
 * them, and the connection check of every integration are read as an administrator and as the token's
 * owner. Tokens saved in plain text by earlier versions are encrypted on start. Each protection has a
 * test that fails without it (docs/reliability.md, "Protection removed → test fails").
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { app_keys, users } from "../../server/db/schema";
import { decryptSecret, secretKey } from "../../server/http/secrets";
import { INTEGRATIONS } from "../../server/modules/integrations/routes";
import { encryptStoredSecrets } from "../../server/modules/users/service";
import { VAPID_KEY_NAME } from "../../server/ports/push/webpush";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildUser, signIn, signInAs } from "../support/factories";
import { recordFigures } from "../support/figures";

const PREFIX = "/api/v1";
const ENV = {
  AZURE_DEVOPS_ORG_URL: "http://127.0.0.1:9/organizacion",
  AZURE_DEVOPS_PAT: "pat-de-entorno-9f8e7d6c5b4a",
  GOOGLE_CLIENT_ID: "cliente-google.apps.googleusercontent.com",
  GOOGLE_CLIENT_SECRET: "secreto-de-google-a1b2c3",
  SMTP_URL: "smtp://sia:clave-smtp-secreta-77@127.0.0.1:9",
  SECRET_KEY: "clave-maestra-de-la-instalacion-0123456789",
};
const USER_AZURE = "pat-del-usuario-secreto-31415";
const USER_CALENDAR = "token-del-calendario-secreto-27182";
/** The auth secret of a push subscription (RFC 8291): whoever has it can read the pushes. */
const PUSH_AUTH = "auth-secreto-de-push-16180";

const getRoutes: string[] = [];
let t: TestApp;
let admin: ApiClient;
let owner: ApiClient;
let ownerId: number;
let answersRead = 0;
const db = () => t.app.db.db;

beforeAll(async () => {
  t = await buildTestApp(ENV, {
    onRoute: (route) => {
      const methods = [route.method].flat();
      if (methods.includes("GET") && route.url.startsWith(`${PREFIX}/`) && !route.url.includes(":")) getRoutes.push(route.url);
    },
  });
  admin = (await signInAs(t.app, "admin")).api;
  const signed = await signInAs(t.app, "operator");
  owner = signed.api;
  ownerId = signed.user.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  recordFigures("seguridad-secretos", `${getRoutes.length} rutas GET, ${answersRead} respuestas revisadas`, {
    getRoutes: getRoutes.length,
    answersRead,
  });
});

/** Every stored or configured secret, and the stored (encrypted) values themselves. */
async function secretsToLookFor() {
  const [row] = await db().select().from(users).where(eq(users.id, ownerId));
  await t.app.push.publicKey();
  const [vapid] = await db().select().from(app_keys).where(eq(app_keys.name, VAPID_KEY_NAME));
  const pair = (typeof vapid.value === "string" ? JSON.parse(vapid.value) : vapid.value) as { privateKey: string };
  return [
    pair.privateKey,
    PUSH_AUTH,
    ...Object.values(ENV).filter((v) => !v.startsWith("http") && !v.endsWith(".com")),
    "clave-smtp-secreta-77",
    USER_AZURE,
    USER_CALENDAR,
    row.azure_token,
    row.cloud_token_encrypted,
  ].filter((v): v is string => Boolean(v));
}

function leaks(label: string, text: string, secrets: string[]) {
  answersRead++;
  return secrets.filter((s) => text.includes(s)).map((s) => `${label} contiene ${s.slice(0, 12)}…`);
}

describe("secrets are write-only", () => {
  it("saves the user's tokens encrypted, and the answers to those writes say only «guardado»", async () => {
    const saved = await owner.put(`${PREFIX}/users/${ownerId}`, { user: { azure_token: USER_AZURE } });
    expect(saved.status).toBe(200);
    expect(saved.body.user.has_azure_token).toBe(true);
    expect(saved.body.user).not.toHaveProperty("azure_token");
    const calendar = await owner.post(`${PREFIX}/users/save_cloud_token`, { user: { token: USER_CALENDAR } });
    const push = await owner.post(`${PREFIX}/push/subscriptions`, {
      subscription: {
        endpoint: "https://fcm.googleapis.com/fcm/send/dispositivo-secreto",
        keys: {
          p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
          auth: PUSH_AUTH,
        },
      },
    });
    expect(push.status).toBe(201);
    expect(calendar.status).toBe(200);
    expect(calendar.body.user.has_cloud_token).toBe(true);
    const [row] = await db().select().from(users).where(eq(users.id, ownerId));
    expect(row.azure_token).not.toContain(USER_AZURE);
    expect(decryptSecret(row.azure_token as string, secretKey(t.app.config))).toBe(USER_AZURE);
    expect(decryptSecret(row.cloud_token_encrypted as string, secretKey(t.app.config))).toBe(USER_CALENDAR);
    const secrets = await secretsToLookFor();
    expect([
      ...leaks("PUT users", saved.text, secrets),
      ...leaks("save_cloud_token", calendar.text, secrets),
      ...leaks("push/subscriptions", push.text, secrets),
    ]).toEqual([]);
  });

  it("no GET route, user record, session or integration check answers with a stored or configured secret", async () => {
    const secrets = await secretsToLookFor();
    expect(getRoutes.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const route of getRoutes) {
      if (route.endsWith("/realtime")) continue; // an event stream, never ends
      for (const [who, api] of [
        ["admin", admin],
        ["dueño", owner],
      ] as const) {
        const res = await api.get(route);
        expect(res.status, `${who} ${route}`).toBeLessThan(500);
        found.push(...leaks(`${who} GET ${route}`, res.text, secrets));
      }
    }
    for (const [who, api] of [
      ["admin", admin],
      ["dueño", owner],
    ] as const) {
      found.push(...leaks(`${who} GET users/${ownerId}`, (await api.get(`${PREFIX}/users/${ownerId}`)).text, secrets));
      found.push(...leaks(`${who} sessions/current`, (await api.get(`${PREFIX}/sessions/current`)).text, secrets));
    }
    const list = await admin.get(`${PREFIX}/users?per_page=200`);
    expect(list.body.users.find((u: { id: number }) => u.id === ownerId)).toMatchObject({ has_azure_token: true });
    found.push(...leaks("admin GET users", list.text, secrets));
    found.push(...leaks("admin GET users.csv", (await admin.get(`${PREFIX}/users.csv`)).text, secrets));
    for (const { port } of INTEGRATIONS) {
      const res = await admin.post(`${PREFIX}/integrations/${port}/check`, {});
      expect(res.status, port).toBeLessThan(500);
      found.push(...leaks(`check ${port}`, res.text, secrets));
    }
    expect(found).toEqual([]);
  }, 120_000);

  it("an empty token in the form keeps the saved one; clear_azure_token removes it; another user's is untouchable", async () => {
    const { user } = await buildUser(db(), "operator");
    const api = await signIn(t.app, user.email);
    expect((await api.put(`${PREFIX}/users/${user.id}`, { user: { azure_token: "pat-propio-1" } })).status).toBe(200);
    const whole = (await api.get(`${PREFIX}/users/${user.id}`)).body.user;
    expect((await api.put(`${PREFIX}/users/${user.id}`, { user: whole })).body.user.has_azure_token).toBe(true);
    const cleared = await api.put(`${PREFIX}/users/${user.id}`, { user: { clear_azure_token: true } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.user.has_azure_token).toBe(false);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row.azure_token).toBeNull();
    expect((await api.put(`${PREFIX}/users/${ownerId}`, { user: { clear_azure_token: true } })).status).toBe(404);
    expect((await db().select().from(users).where(eq(users.id, ownerId)))[0].azure_token).not.toBeNull();
  });

  it("encrypts on start a token an earlier version saved in plain text", async () => {
    const { user } = await buildUser(db(), "operator");
    await db().update(users).set({ azure_token: "pat-antiguo-en-claro" }).where(eq(users.id, user.id));
    expect(await encryptStoredSecrets(db(), secretKey(t.app.config))).toBe(1);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row.azure_token).not.toContain("pat-antiguo-en-claro");
    expect(decryptSecret(row.azure_token as string, secretKey(t.app.config))).toBe("pat-antiguo-en-claro");
    // Once done, nothing more.
    expect(await encryptStoredSecrets(db(), secretKey(t.app.config))).toBe(0);
    // The tickets port reads it back decrypted.
    const { ticketsDirectory } = await import("../../server/ports/tickets");
    expect(await ticketsDirectory(t.app.db, secretKey(t.app.config)).userToken(user.id)).toBe("pat-antiguo-en-claro");
  });
});
