/**
 * The administrators' «Integraciones» page: GET /integrations lists each port's adapter,
 * POST /integrations/:port/check tests it (a failure is ok:false with a Spanish reason, never a 500).
 * Apps: one on the local defaults, one with SMTP at a closed port and Azure DevOps at a local server,
 * one with a real local SMTP and a PAT Azure refuses.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTEGRATIONS, runCheck } from "../../server/modules/integrations/routes";
import { integrationMessages, messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, call, signInAs } from "../support/factories";
import { type FakeAzureDevOps, startFakeAzureDevOps } from "../support/fake-azure-devops";
import { FakeGoogle } from "../support/fake-google";
import { startSmtp } from "../support/smtp";

const PAT = "pat-integraciones";
let azure: FakeAzureDevOps;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let local: TestApp;
let remote: TestApp;
let refused: TestApp;
const admin = {} as Record<"local" | "remote" | "refused", ApiClient>;
let operator: ApiClient;
let finance: ApiClient;

/** A port nobody listens on (taken from the system, then released). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const check = (api: ApiClient, port: string) => api.post(`/api/v1/integrations/${port}/check`, {});
const row = (body: { integrations: Array<{ port: string }> }, port: string) => body.integrations.find((i) => i.port === port);

beforeAll(async () => {
  azure = await startFakeAzureDevOps({ tokens: [PAT], projects: { Soporte: [] } });
  smtp = await startSmtp();
  local = await buildTestApp();
  admin.local = (await signInAs(local.app, "admin")).api;
  operator = (await signInAs(local.app, "operator")).api;
  finance = (await signInAs(local.app, "finance")).api;
  remote = await buildTestApp({
    SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
    AZURE_DEVOPS_ORG_URL: azure.url,
    AZURE_DEVOPS_PAT: PAT,
    AZURE_DEVOPS_PROJECT: "Soporte",
  });
  admin.remote = (await signInAs(remote.app, "admin")).api;
  refused = await buildTestApp({ SMTP_URL: smtp.url, AZURE_DEVOPS_ORG_URL: azure.url, AZURE_DEVOPS_PAT: "pat-revocado" });
  admin.refused = (await signInAs(refused.app, "admin")).api;
});

afterAll(async () => {
  await local?.close();
  await remote?.close();
  await refused?.close();
  await azure?.close();
  await smtp?.close();
});

describe("Integraciones: permisos", () => {
  it("only administrators list and test the integrations", async () => {
    for (const api of [operator, finance]) {
      const list = await api.get("/api/v1/integrations");
      expect(list.status).toBe(403);
      expect(list.body).toEqual({ error: messages.forbidden });
      expect((await check(api, "documents")).status).toBe(403);
    }
    expect((await call(local.app, "GET", "/api/v1/integrations")).status).toBe(401);
    expect((await call(local.app, "POST", "/api/v1/integrations/documents/check", {})).status).toBe(401);
    expect((await admin.local.get("/api/v1/integrations")).status).toBe(200);
  });
});

describe("Integraciones: predeterminados locales", () => {
  it("lists every port with its adapter, not active, and its variables", async () => {
    const res = await admin.local.get("/api/v1/integrations");
    expect(res.status).toBe(200);
    expect(res.body.integrations.map((i: { port: string }) => i.port)).toEqual(INTEGRATIONS.map((e) => e.port));
    expect(res.body.integrations).toEqual([
      {
        port: "documents",
        label: "Drive (documentos)",
        kind: "local",
        active: false,
        variables: ["DOCUMENTS_ADAPTER", "DATA_DIR", "GOOGLE_DRIVE_ROOT_ID", "GOOGLE_SERVICE_ACCOUNT_KEY_FILE"],
      },
      {
        port: "calendar",
        label: "Calendario (eventos de cotizaciones)",
        kind: "local",
        active: false,
        variables: ["CALENDAR_ADAPTER", "PUBLIC_URL", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
      },
      {
        port: "calendarReader",
        label: "Importación de calendario",
        kind: "none",
        active: false,
        variables: ["CALENDAR_ADAPTER", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
      },
      { port: "mail", label: "Correo saliente", kind: "outbox", active: false, variables: ["SMTP_URL", "MAIL_FROM"] },
      {
        port: "tickets",
        label: "Tickets (Azure Devops)",
        kind: "none",
        active: false,
        variables: ["AZURE_DEVOPS_ORG_URL", "AZURE_DEVOPS_PAT", "AZURE_DEVOPS_PROJECT"],
      },
      { port: "push", label: "Notificaciones push (Web Push)", kind: "webpush", active: true, variables: ["PUSH_SUBJECT"] },
      {
        port: "identity",
        label: "Inicio de sesión (OpenID Connect)",
        kind: "none",
        active: false,
        variables: ["OIDC_AUTHORITY", "OIDC_CLIENT_ID", "OIDC_BUTTON_LABEL"],
      },
    ]);
  });

  it("each local default's check passes; ports with nothing configured say so", async () => {
    for (const port of ["documents", "calendar", "mail"]) {
      const res = await check(admin.local, port);
      expect(res.status, port).toBe(200);
      expect(res.body, port).toEqual({ ok: true, message: "Conexión correcta" });
    }
    expect((await check(admin.local, "calendarReader")).body).toEqual({
      ok: true,
      message: integrationMessages.calendarReaderNotConfigured,
    });
    expect((await check(admin.local, "tickets")).body).toEqual({ ok: true, message: integrationMessages.notConfigured });
    expect((await check(admin.local, "push")).body).toEqual({ ok: true, message: "Conexión correcta" });
    expect((await check(admin.local, "identity")).body).toEqual({
      ok: true,
      message: integrationMessages.identityNotConfigured,
    });
  });

  it("an unknown port is a Spanish 404", async () => {
    const res = await check(admin.local, "fax");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: integrationMessages.unknownPort });
  });
});

describe("Integraciones: servicios externos", () => {
  it("configured adapters are listed as active", async () => {
    const res = await admin.remote.get("/api/v1/integrations");
    expect(row(res.body, "mail")).toMatchObject({ kind: "smtp", active: true });
    expect(row(res.body, "tickets")).toMatchObject({ kind: "azure-devops", active: true });
    expect(row(res.body, "documents")).toMatchObject({ kind: "local", active: false });
  });

  it("an SMTP server that does not answer is ok:false with the reason, as a 200", async () => {
    const res = await check(admin.remote, "mail");
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.message).toMatch(/^El servidor SMTP no respondió/);
  });

  it("Azure DevOps answers the check with the firm's PAT (a real request to the local organisation)", async () => {
    const before = azure.requests.length;
    const res = await check(admin.remote, "tickets");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, message: "Conexión correcta" });
    const sent = azure.requests.slice(before);
    expect(sent.some((r) => r.method === "GET" && r.path === "/firma/_apis/projects" && r.token === PAT)).toBe(true);
    expect(sent.some((r) => r.path === "/firma/_apis/projects/Soporte")).toBe(true);
  });

  it("a PAT Azure refuses is ok:false with the Spanish reason; a reachable SMTP server passes", async () => {
    expect((await check(admin.refused, "tickets")).body).toEqual({ ok: false, message: messages.ticketsUnauthorized });
    expect((await check(admin.refused, "mail")).body).toEqual({ ok: true, message: "Conexión correcta" });
  });

  it("a check that never answers is cut by the timeout and reported", async () => {
    const app = { log: local.app.log } as unknown as FastifyInstance;
    const result = await runCheck(
      { port: "lento", label: "Lento", variables: [], adapter: () => ({ kind: "lento", check: () => new Promise(() => {}) }) },
      app,
      50,
    );
    expect(result).toEqual({ ok: false, message: integrationMessages.checkTimeout(1) });
  });
});

describe("Integraciones: Google Drive como drive", () => {
  it("lists the drive as an active google adapter and tests it against the local Google server", async () => {
    const fake = await new FakeGoogle().start();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-integraciones-"));
    const env = {
      DOCUMENTS_ADAPTER: "google",
      GOOGLE_SERVICE_ACCOUNT_KEY_FILE: fake.writeKeyFile(dir),
      GOOGLE_API_ROOT_URL: fake.url,
    };
    const google = await buildTestApp({ ...env, GOOGLE_DRIVE_ROOT_ID: fake.rootId });
    const missingRoot = await buildTestApp({ ...env, GOOGLE_DRIVE_ROOT_ID: "carpetaQueNoExiste" });
    try {
      const api = (await signInAs(google.app, "admin")).api;
      const listed = await api.get("/api/v1/integrations");
      expect(row(listed.body, "documents")).toMatchObject({ kind: "google", active: true });
      expect((await check(api, "documents")).body).toEqual({ ok: true, message: "Conexión correcta" });
      const failing = await check((await signInAs(missingRoot.app, "admin")).api, "documents");
      expect(failing.status).toBe(200);
      expect(failing.body.ok).toBe(false);
      expect(failing.body.message).toMatch(/\S/);
    } finally {
      await google.close();
      await missingRoot.close();
      await fake.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
