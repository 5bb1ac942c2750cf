/**
 * Sign-in with an OpenID Connect provider, end to end: a real OpenID provider (`oidc-provider`
 * over HTTPS with a self-signed certificate, its development login form) and a SIA server of this spec's
 * own configured with it (OIDC_AUTHORITY, OIDC_CLIENT_ID, and NODE_EXTRA_CA_CERTS so it trusts the
 * provider). The browser runs MSAL in OIDC protocol mode: SIA's button → the provider's login → back to
 * /sign_in → the ID token to POST /api/v1/auth/callback → a SIA session.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { generate } from "selfsigned";
import { messages } from "../../src/core/messages";
import { ACCOUNTS } from "./fixtures";

const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
/** This spec's SIA and provider, next to the suite's server (E2E_PORT) in the same range. */
const SIA = `http://127.0.0.1:${E2E_PORT + 1}`;
const ISSUER = `https://127.0.0.1:${E2E_PORT + 2}`;
const CLIENT_ID = "sia-e2e";
const BUTTON = "Entrar con Microsoft";

let workDir: string;
let providerServer: https.Server | undefined;
let sia: ChildProcess | undefined;
let siaLog = "";

test.use({ ignoreHTTPSErrors: true, baseURL: SIA });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-oidc-e2e-"));
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });
  const certFile = path.join(workDir, "provider.pem");
  fs.writeFileSync(certFile, pems.cert);

  const provider = new Provider(ISSUER, {
    clients: [
      {
        client_id: CLIENT_ID,
        token_endpoint_auth_method: "none",
        application_type: "web",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: [`${SIA}/sign_in`],
      },
    ],
    pkce: { required: () => true },
    // MSAL redeems the code from SIA's page: the token endpoint answers that origin (CORS).
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string) => origin === SIA,
    // The login form's "login" is the e-mail (oidc-provider's development interactions).
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: true, name: id }),
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The e-mail travels in the ID token (SIA reads nothing from the userinfo endpoint).
    conformIdTokenClaims: false,
    // SIA is first-party: no consent screen, the requested scopes are granted.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["clave-de-cookies-de-la-prueba-e2e"] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  providerServer = https.createServer({ key: pems.private, cert: pems.cert }, provider.callback());
  await new Promise<void>((resolve, reject) => {
    providerServer!.once("error", reject);
    providerServer!.listen(E2E_PORT + 2, "127.0.0.1", resolve);
  });

  sia = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: path.resolve(import.meta.dirname, "..", ".."),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      // A fresh embedded database with the demo firm, whatever the caller's environment says.
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "DATABASE_URL")),
      SIA_DEMO: "1",
      HOST: "127.0.0.1",
      PORT: String(E2E_PORT + 1),
      DATA_DIR: path.join(workDir, "data"),
      JOBS_ENABLED: "0",
      LOG_LEVEL: "warn",
      OIDC_AUTHORITY: ISSUER,
      OIDC_CLIENT_ID: CLIENT_ID,
      NODE_EXTRA_CA_CERTS: certFile,
    },
  });
  for (const stream of [sia.stdout, sia.stderr]) stream?.on("data", (chunk) => (siaLog = (siaLog + chunk).slice(-4000)));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (sia.exitCode !== null) throw new Error(`SIA terminó al arrancar (${sia.exitCode}):\n${siaLog}`);
    const ok = await fetch(`${SIA}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`SIA no respondió en ${SIA}/healthz:\n${siaLog}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (sia?.pid && sia.exitCode === null) {
    const exited = new Promise((resolve) => sia!.once("exit", resolve));
    process.kill(-sia.pid, "SIGTERM");
    const timer = setTimeout(() => sia?.pid && process.kill(-sia.pid, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
  await new Promise((resolve) => (providerServer ? providerServer.close(resolve) : resolve(undefined)));
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** From SIA's sign-in page through the provider's login form, as `email`. */
async function signInAtProvider(page: Page, email: string) {
  await page.goto("/sign_in");
  await page.getByRole("button", { name: BUTTON }).click();
  await expect(page).toHaveURL(new RegExp(`^${ISSUER}/`), { timeout: 30_000 });
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill("cualquiera");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

test("the provider's button signs an existing user in and lands on the activities", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAtProvider(page, ACCOUNTS.operator);
  await expect(page).toHaveURL(`${SIA}/app/activities`, { timeout: 60_000 });
  const current = await page.request.get("/api/v1/sessions/current");
  expect(current.status()).toBe(200);
  expect((await current.json()).user.email).toBe(ACCOUNTS.operator);
  // The session outlives the page: a reload stays in the app.
  await page.reload();
  await page.waitForLoadState("networkidle");
  await expect(page).toHaveURL(`${SIA}/app/activities`);
});

test("an e-mail without a SIA user comes back to /sign_in with «Credenciales Invalidas» and no session", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAtProvider(page, "nadie@externo.mx");
  await expect(page).toHaveURL(/\/sign_in/, { timeout: 60_000 });
  await expect(page.getByRole("alert").filter({ hasText: messages.invalidCredentials })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: BUTTON })).toBeEnabled();
  expect((await page.request.get("/api/v1/sessions/current")).status()).toBe(401);
});

test("without OIDC_AUTHORITY the sign-in page offers no provider button (the suite's own server)", async ({ page }) => {
  const asked = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/config"));
  await page.goto(`http://127.0.0.1:${E2E_PORT}/sign_in`);
  // The page asked the server and was told no; the answer has been rendered a few frames later.
  expect(await (await asked).json()).toEqual({ enabled: false });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await expect(page.getByRole("button", { name: "Entrar", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: BUTTON })).toHaveCount(0);
});
