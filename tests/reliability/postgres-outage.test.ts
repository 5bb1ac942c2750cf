/**
 * PostgreSQL outage: the server reaches PostgreSQL through a TCP proxy the test cuts and
 * restores. While cut, requests answer a clean Spanish 503 with Retry-After (never a 500) and the process
 * stays up — also when the cut lands while a transaction holds a connection; once restored, requests
 * succeed again without restarting the server. PostgreSQL only: the embedded database has no connection
 * to lose.
 */
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../src/core/messages";
import { buildUser, PASSWORD } from "../support/factories";
import { recordFigures } from "../support/figures";
import { createStore, type HttpClient, httpSignIn, type ServerProcess, startServer, type TestStore } from "../support/server";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

const PORT = 3251;
const onPostgres = Boolean(process.env.DATABASE_URL);
let store: TestStore;
let proxy: TcpProxy;
let server: ServerProcess;
let admin: HttpClient;
let adminEmail = "";
const figures = { outages: 0, answers503: 0, answers500: 0, recoveredRequests: 0 };

describe.skipIf(!onPostgres)("PostgreSQL outage (skipped on the embedded database: it has no connection to lose)", () => {
  beforeAll(async () => {
    store = await createStore();
    await store.withDatabase(async ({ db }) => {
      adminEmail = (await buildUser(db, "admin")).user.email;
    });
    const url = new URL(store.databaseUrl as string);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({ dataDir: store.dataDir, databaseUrl: url.toString() }, PORT);
    admin = await httpSignIn(server.url, adminEmail, PASSWORD);
  });

  afterAll(async () => {
    await server?.kill("SIGKILL");
    await proxy?.close();
    recordFigures(
      "confiabilidad-postgresql",
      `cortes de PostgreSQL sobrevividos: ${figures.outages}, respuestas 503 durante el corte: ${figures.answers503}, 500: ${figures.answers500}, peticiones correctas tras restablecer: ${figures.recoveredRequests}`,
      figures,
    );
    await store?.destroy();
  });

  const alive = () => server.child.exitCode === null && server.child.signalCode === null;

  /** Polls until a list answers 200 again (the pool reconnects by itself). */
  async function recovered() {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await admin.request("GET", "/api/v1/clients");
      if (res.status === 200) break;
      expect(res.status).toBe(503);
      if (Date.now() > deadline) throw new Error("el servidor no se recuperó en 60 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const url of ["/api/v1/clients", "/api/v1/sessions/current", "/api/v1/holydays"]) {
      expect((await admin.request("GET", url)).status).toBe(200);
      figures.recoveredRequests++;
    }
  }

  // A failed check must not leave the next test without its database.
  afterEach(() => proxy?.restore());

  it("while cut: 503 in Spanish with Retry-After, never a 500; restored: works again, same process", async () => {
    expect((await admin.request("GET", "/api/v1/clients")).status).toBe(200);
    proxy.cut();
    const requests: [string, string, unknown?][] = [
      ["GET", "/api/v1/clients"],
      ["GET", "/api/v1/sessions/current"],
      ["POST", "/api/v1/clients", { client: { name: "Durante el corte", client_code: "7777" } }],
      ["POST", "/api/v1/sessions", { email: adminEmail, password: PASSWORD }],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [method, url, body] of requests) {
        const res = await admin.request(method, url, body);
        if (res.status === 500) figures.answers500++;
        expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(503);
        expect(res.body).toEqual({ error: messages.databaseUnavailable });
        expect(res.headers.get("retry-after")).toBe("5");
        figures.answers503++;
      }
    }
    expect(alive()).toBe(true);
    proxy.restore();
    await recovered();
    figures.outages++;
    expect(alive()).toBe(true);
  });

  it("a cut while a transaction holds a connection does not kill the process", async () => {
    // Hold connections checked out: many concurrent writes, cut while they run.
    const writes = Array.from({ length: 20 }, (_, i) =>
      admin.request("POST", "/api/v1/activities/batch", {
        activities: [
          {
            begins_at: new Date(Date.UTC(2022, 0, 5 + i, 9)).toISOString(),
            ends_at: new Date(Date.UTC(2022, 0, 5 + i, 10)).toISOString(),
            description: `En vuelo ${i}`,
            action_type: "rh",
            import_key: `en-vuelo-${i}`,
          },
        ],
      }),
    );
    await new Promise((r) => setTimeout(r, 30));
    proxy.cut();
    const answers = await Promise.all(writes);
    for (const res of answers) {
      if (res.status === 500) figures.answers500++;
      expect([200, 503], JSON.stringify(res.body)).toContain(res.status);
    }
    // Idle pool clients and checked-out ones both lost their socket: the process must still be up.
    await new Promise((r) => setTimeout(r, 1000));
    expect(alive(), server.output().slice(-2000)).toBe(true);
    const during = await admin.request("GET", "/api/v1/clients");
    expect(during.status).toBe(503);
    proxy.restore();
    await recovered();
    figures.outages++;
    expect(alive()).toBe(true);
  });

  it("a cut inside an open transaction (paused there) does not kill the process", async () => {
    // A second server paused inside a week save: its checked-out client loses its socket while idle in the
    // transaction, which pg reports as an 'error' event on that client, not as a failed query.
    const url = new URL(store.databaseUrl as string);
    url.host = `127.0.0.1:${proxy.port}`;
    const paused = await startServer({ dataDir: `${store.dataDir}-b`, databaseUrl: url.toString() }, 3254, {
      SIA_TEST_PAUSE: "holiday_import",
    });
    try {
      const client = await httpSignIn(paused.url, adminEmail, PASSWORD);
      const { multipart } = await import("../support/catalog-factories");
      const body = multipart({ filename: "f.csv", contentType: "text/csv", content: "fecha,nombre\n2070-01-01,Corte\n" });
      const pending = fetch(`${paused.url}/api/v1/holydays/import_holydays`, {
        method: "PUT",
        headers: { authorization: `Bearer ${client.token}`, "content-type": body.headers["content-type"] },
        body: new Uint8Array(body.payload),
      }).catch(() => null);
      await paused.waitFor("SIA_TEST_PAUSED holiday_import");
      proxy.cut();
      await new Promise((r) => setTimeout(r, 1500));
      const stillUp = paused.child.exitCode === null && paused.child.signalCode === null;
      expect(stillUp, paused.output().slice(-2000)).toBe(true);
      proxy.restore();
      const other = await httpSignIn(paused.url, adminEmail, PASSWORD).catch(() => null);
      // The pool gives a fresh connection: the server still answers.
      const deadline = Date.now() + 60_000;
      let ok = other;
      while (!ok && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        ok = await httpSignIn(paused.url, adminEmail, PASSWORD).catch(() => null);
      }
      expect(ok).not.toBeNull();
      figures.outages++;
      void pending;
    } finally {
      await paused.kill("SIGKILL");
      fs.rmSync(`${store.dataDir}-b`, { recursive: true, force: true });
    }
    await recovered();
  });
});
