/**
 * The tickets port's Azure DevOps adapter: the real route POST /activities/get_ticket_by_proyect on
 * an app whose environment points at a local Azure DevOps (tests/support/fake-azure-devops.ts), reached
 * through the official client. The route answers the port's errors as 422s titled "Azure Devops" with the
 * port's Spanish reason.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TicketsDirectory, TicketsError } from "../../server/ports/tickets";
import { AzureDevOpsTickets, ticketsWiql } from "../../server/ports/tickets/azure";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";
import { type FakeAzureDevOps, startFakeAzureDevOps } from "../support/fake-azure-devops";
import { buildProject } from "../support/project-factories";

const PAT = "pat-de-la-firma";
const USER_PAT = "pat-personal-del-usuario";
const ROUTE = "/api/v1/activities/get_ticket_by_proyect";

let azure: FakeAzureDevOps;
let t: TestApp;
let operator: ApiClient;
let withToken: ApiClient;
let withToken2: { id: number };
let portal: { id: number };
let missing: { id: number };

const azureError = (reason: string) => ({ title: "Azure Devops", errors: { base: [reason] } });

beforeAll(async () => {
  azure = await startFakeAzureDevOps({
    tokens: [PAT, USER_PAT],
    projects: {
      Soporte: [
        { id: 101, title: "Falla al timbrar factura", state: "Active", changed: "2025-03-01T10:00:00Z" },
        { id: 102, title: "Falla en reporte semanal", state: "New", changed: "2025-03-05T10:00:00Z" },
        { id: 103, title: "Mejora del tablero", state: "Closed", changed: "2025-03-03T10:00:00Z" },
        { id: 104, title: "Error de d'Artagnan en el login", state: "Active", changed: "2025-03-02T10:00:00Z" },
      ],
      Portal: [{ id: 201, title: "Falla de acceso al portal", state: "Active", changed: "2025-02-01T10:00:00Z" }],
      Secreto: [{ id: 301, title: "Falla confidencial", state: "Active", changed: "2025-04-01T10:00:00Z" }],
    },
  });
  t = await buildTestApp({ AZURE_DEVOPS_ORG_URL: azure.url, AZURE_DEVOPS_PAT: PAT, AZURE_DEVOPS_PROJECT: "Soporte" });
  operator = (await signInAs(t.app, "operator")).api;
  const other = await signInAs(t.app, "operator");
  withToken = other.api;
  withToken2 = other.user;
  // Saved through the API, as the user's screen does (stored encrypted).
  expect((await withToken.put(`/api/v1/users/${other.user.id}`, { user: { azure_token: USER_PAT } })).status).toBe(200);
  portal = await buildProject(t.app.db.db, { name: "Portal" });
  missing = await buildProject(t.app.db.db, { name: "Proyecto sin Azure" });
});

afterAll(async () => {
  await t?.close();
  await azure?.close();
});

describe("Azure DevOps: búsqueda de tickets", () => {
  it("app.tickets is the Azure DevOps adapter when AZURE_DEVOPS_ORG_URL is set", () => {
    expect(t.app.tickets.kind).toBe("azure-devops");
  });

  it("finds the work items of AZURE_DEVOPS_PROJECT whose title contains the text, newest first, with the firm's PAT", async () => {
    const before = azure.requests.length;
    const res = await operator.post(ROUTE, { search: "falla" });
    expect(res.status).toBe(200);
    expect(res.body.tickets).toEqual([
      { id: "102", name: "Falla en reporte semanal", state: "New", url: `${azure.url}/Soporte/_workitems/edit/102` },
      { id: "101", name: "Falla al timbrar factura", state: "Active", url: `${azure.url}/Soporte/_workitems/edit/101` },
    ]);
    const sent = azure.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.token === PAT)).toBe(true);
    const wiql = sent.find((r) => r.path.endsWith("/_apis/wit/wiql"));
    expect(wiql?.path).toBe("/firma/Soporte/_apis/wit/wiql");
    expect(wiql?.query.$top).toBe("50");
    expect(sent.some((r) => r.method === "POST" && r.path.toLowerCase() === "/firma/soporte/_apis/wit/workitemsbatch")).toBe(
      true,
    );
  });

  it("a token's negotiated client is reused: a second search sends only the query and the batch", async () => {
    expect((await operator.post(ROUTE, { search: "tablero" })).status).toBe(200);
    const before = azure.requests.length;
    const res = await operator.post(ROUTE, { search: "tablero" });
    expect(res.body.tickets.map((x: { id: string }) => x.id)).toEqual(["103"]);
    expect(azure.requests.slice(before).map((r) => `${r.method} ${r.path.toLowerCase()}`)).toEqual([
      "POST /firma/soporte/_apis/wit/wiql",
      "POST /firma/soporte/_apis/wit/workitemsbatch",
    ]);
  });

  it("a number finds the work item with that id as well; no text lists the newest", async () => {
    const res = await operator.post(ROUTE, { search: "103" });
    expect(res.status).toBe(200);
    expect(res.body.tickets.map((x: { id: string }) => x.id)).toEqual(["103"]);
    const all = await operator.post(ROUTE, { search: "  " });
    expect(all.body.tickets.map((x: { id: string }) => x.id)).toEqual(["102", "103", "104", "101"]);
    expect(azure.wiqls().at(-1)).not.toContain("CONTAINS");
    const none = await operator.post(ROUTE, { search: "nada parecido" });
    expect(none.status).toBe(200);
    expect(none.body.tickets).toEqual([]);
  });

  it("with a SIA project, its name is the team project searched", async () => {
    const res = await operator.post(ROUTE, { search: "falla", project_id: portal.id });
    expect(res.status).toBe(200);
    expect(res.body.tickets).toEqual([
      { id: "201", name: "Falla de acceso al portal", state: "Active", url: `${azure.url}/Portal/_workitems/edit/201` },
    ]);
    expect(azure.wiqls().at(-1)).toContain("[System.TeamProject] = 'Portal'");
  });

  it("the user's own azure token is preferred over AZURE_DEVOPS_PAT", async () => {
    const before = azure.requests.length;
    const res = await withToken.post(ROUTE, { search: "falla" });
    expect(res.status).toBe(200);
    expect(res.body.tickets).toHaveLength(2);
    const sent = azure.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.token === USER_PAT)).toBe(true);
  });

  it("a token Azure refuses is a 422 «Azure Devops», not a 500", async () => {
    await withToken.put(`/api/v1/users/${withToken2.id}`, { user: { azure_token: "token-caducado" } });
    try {
      const res = await withToken.post(ROUTE, { search: "falla" });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(azureError(messages.ticketsUnauthorized));
    } finally {
      await withToken.put(`/api/v1/users/${withToken2.id}`, { user: { azure_token: USER_PAT } });
    }
  });

  it("a team project Azure does not know is a 422 naming it; a SIA project that does not exist too", async () => {
    const res = await operator.post(ROUTE, { search: "falla", project_id: missing.id });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(azureError(messages.ticketsProjectNotFound("Proyecto sin Azure")));
    const gone = await operator.post(ROUTE, { search: "falla", project_id: 999_999 });
    expect(gone.status).toBe(422);
    expect(gone.body).toEqual(azureError(messages.ticketsSiaProjectMissing));
  });

  it("quotes in the search stay literal text: no WIQL injection reaches other projects", async () => {
    const quoted = await operator.post(ROUTE, { search: "d'Artagnan" });
    expect(quoted.status).toBe(200);
    expect(quoted.body.tickets.map((x: { id: string }) => x.id)).toEqual(["104"]);

    const attack = "x') OR ([System.TeamProject] = 'Secreto";
    const res = await operator.post(ROUTE, { search: attack });
    expect(res.status).toBe(200);
    expect(res.body.tickets).toEqual([]);
    expect(azure.wiqls().at(-1)).toContain("CONTAINS 'x'') OR ([System.TeamProject] = ''Secreto'");
    // The same text without escaping does reach the other project (the fake parses WIQL for real).
    const unescaped = ticketsWiql("Soporte", "x").replace("'x'", `'${attack}'`);
    const raw = await fetch(`${azure.url}/Soporte/_apis/wit/wiql?api-version=7.1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${Buffer.from(`:${PAT}`).toString("base64")}` },
      body: JSON.stringify({ query: unescaped }),
    });
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as { workItems: Array<{ id: number }> }).workItems.map((w) => w.id)).toContain(301);
  });

  it("the adapter's check() answers with the firm's PAT and fails with a Spanish reason otherwise", async () => {
    await expect(t.app.tickets.check()).resolves.toBeUndefined();
    const directory: TicketsDirectory = { userToken: async () => null, projectName: async () => null };
    const bad = new AzureDevOpsTickets({ orgUrl: azure.url, pat: "otro-token" }, directory);
    await expect(bad.check()).rejects.toThrow(messages.ticketsUnauthorized);
    const noPat = new AzureDevOpsTickets({ orgUrl: azure.url }, directory);
    await expect(noPat.check()).rejects.toThrow(messages.ticketsNoToken);
    const unknownProject = new AzureDevOpsTickets({ orgUrl: azure.url, pat: PAT, project: "Fantasma" }, directory);
    await expect(unknownProject.check()).rejects.toThrow(messages.ticketsProjectNotFound("Fantasma"));
  });

  it("no project to search, no token, or an organisation that does not answer: the port says why, in Spanish", async () => {
    const directory: TicketsDirectory = { userToken: async () => null, projectName: async () => null };
    const search = { search: "falla", user_id: 1 };
    const noProject = new AzureDevOpsTickets({ orgUrl: azure.url, pat: PAT }, directory);
    // The port's own error, not an HTTP answer: the route that calls it makes it a 422 (see above).
    await expect(noProject.search(search)).rejects.toMatchObject({ kind: "no_project", message: messages.ticketsNoProject });
    await expect(noProject.search(search)).rejects.toBeInstanceOf(TicketsError);
    const noToken = new AzureDevOpsTickets({ orgUrl: azure.url, project: "Soporte" }, directory);
    await expect(noToken.search(search)).rejects.toMatchObject({ kind: "no_token", message: messages.ticketsNoToken });
    // A port nobody listens on (taken from the system, then released).
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = new AzureDevOpsTickets({ orgUrl: `http://127.0.0.1:${closed}/firma`, pat: PAT, project: "Soporte" }, directory);
    await expect(down.search(search)).rejects.toMatchObject({ kind: "unreachable", message: messages.ticketsUnreachable });
    await expect(down.check()).rejects.toThrow(messages.ticketsUnreachable);
  });
});

describe("sin Azure DevOps configurado", () => {
  it("the route answers the existing NoTickets message", async () => {
    const plain = await buildTestApp();
    try {
      expect(plain.app.tickets.kind).toBe("none");
      const { api } = await signInAs(plain.app, "operator");
      const res = await api.post(ROUTE, { search: "falla" });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(azureError(messages.ticketsNotConfigured));
    } finally {
      await plain.close();
    }
  });
});
