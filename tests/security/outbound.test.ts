/**
 * Outbound requests: what a user can make the server ask for. A Web Push subscription names a URL the
 * server POSTs to on every notice or mention, so it is checked like any address from outside: only HTTPS
 * endpoints of the browsers' push services (PUSH_ALLOWED_HOSTS), never a redirect followed, each push
 * bounded in time and sent after the request that caused it has been answered; and one user's devices
 * are capped, also under a burst of parallel subscriptions. Each protection has a test that fails
 * without it (docs/reliability.md, "Protection removed → test fails").
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { push_subscriptions } from "../../server/db/schema";
import { MAX_SUBSCRIPTIONS_PER_USER } from "../../server/modules/push/service";
import { pushEndpointAllowed } from "../../server/ports/push";
import { boardMessages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { burst } from "../support/burst";
import { buildUser, signIn, signInAs } from "../support/factories";
import { recordFigures } from "../support/figures";
import { startPushService } from "../support/push-service";

/** How long the slow push service takes to answer: longer than the app's PUSH_TIMEOUT_MS. */
const SLOW_MS = 5000;
const TIMEOUT_MS = 2000;

let t: TestApp;
let service: Awaited<ReturnType<typeof startPushService>>;
/** An "internal" server that must never be reached: it is not on the allow-list. */
let internal: http.Server;
let internalBase: string;
const internalHits: string[] = [];
/** The allowed push host's misbehaving paths: /slow/* answers late, /redirect/* sends to the internal server. */
let tricky: http.Server;
let trickyBase: string;
const trickyHits: string[] = [];
const figures: Record<string, unknown> = {};

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  service = await startPushService();
  internal = http.createServer((req, res) => {
    internalHits.push(`${req.method} ${req.url}`);
    res.writeHead(200).end("secreto interno");
  });
  internalBase = await listen(internal);
  tricky = http.createServer((req, res) => {
    trickyHits.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url?.startsWith("/redirect/")) return res.writeHead(303, { location: `${internalBase}/internal/admin` }).end();
    setTimeout(() => res.writeHead(201).end(), SLOW_MS).unref();
  });
  trickyBase = await listen(tricky);
  t = await buildTestApp({ PUSH_ALLOWED_HOSTS: `${service.base},${trickyBase}`, PUSH_TIMEOUT_MS: String(TIMEOUT_MS) });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await service?.close();
  tricky?.closeAllConnections();
  for (const server of [internal, tricky]) await new Promise((resolve) => server?.close(resolve));
  recordFigures("seguridad-salida", JSON.stringify(figures), figures);
});

const keys = () => service.subscription().keys;
const subscribe = (api: Awaited<ReturnType<typeof signIn>>, endpoint: string) =>
  api.post("/api/v1/push/subscriptions", { subscription: { endpoint, keys: keys() } });

describe("push endpoints: only the browsers' push services", () => {
  it("refuses loopback, private, metadata, look-alike and plain-HTTP endpoints with a Spanish 422, storing nothing", async () => {
    // The default allow-list (no test origin): what production accepts.
    const plain = await buildTestApp();
    try {
      const { user } = await buildUser(plain.app.db.db, "operator");
      const api = await signIn(plain.app, user.email);
      const refused = [
        `${internalBase}/internal/admin`,
        "https://127.0.0.1/push",
        "https://localhost/push",
        "https://[::1]/push",
        "https://169.254.169.254/latest/meta-data/",
        "https://10.0.0.5/push",
        "http://fcm.googleapis.com/fcm/send/abc",
        "https://fcm.googleapis.com:8443/fcm/send/abc",
        "https://fcm.googleapis.com.atacante.mx/fcm/send/abc",
        "https://atacante.mx/fcm.googleapis.com",
        "https://usuario:clave@fcm.googleapis.com/fcm/send/abc",
        "https://notify.windows.com.atacante.mx/w",
        "ftp://fcm.googleapis.com/x",
      ];
      const wrong: string[] = [];
      for (const endpoint of refused) {
        const res = await subscribe(api, endpoint);
        if (
          res.status !== 422 ||
          JSON.stringify(res.body.errors) !== JSON.stringify({ endpoint: [boardMessages.subscriptionHostNotAllowed] })
        )
          wrong.push(`${endpoint} → ${res.status} ${res.text}`);
      }
      expect(wrong).toEqual([]);
      expect(await plain.app.db.db.select().from(push_subscriptions)).toHaveLength(0);
      // The real services are accepted (stored, nothing is sent by subscribing).
      for (const endpoint of [
        "https://fcm.googleapis.com/fcm/send/abc:def",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
        "https://web.push.apple.com/QGuQyavXut",
      ])
        expect((await subscribe(api, endpoint)).status, endpoint).toBe(201);
      figures.refusedEndpoints = refused.length;
    } finally {
      await plain.close();
    }
  });

  it("the allow-list: https hosts only; an http:// origin only under NODE_ENV=test; never an address", () => {
    const defaults = loadConfig({}).PUSH_ALLOWED_HOSTS;
    expect(defaults).toContain("fcm.googleapis.com");
    expect(pushEndpointAllowed("https://a.b.notify.windows.com/x", defaults)).toBe(true);
    expect(pushEndpointAllowed("https://notify.windows.com/x", defaults)).toBe(false);
    expect(() => loadConfig({ NODE_ENV: "production", PUSH_ALLOWED_HOSTS: "http://127.0.0.1:9000" })).toThrow(
      /PUSH_ALLOWED_HOSTS: .*solo se admiten nombres de host/,
    );
    for (const entry of ["127.0.0.1", "*", "localhost", "*.com", "[::1]"])
      expect(() => loadConfig({ NODE_ENV: "production", PUSH_ALLOWED_HOSTS: entry }), entry).toThrow(/PUSH_ALLOWED_HOSTS/);
    expect(loadConfig({ NODE_ENV: "production", PUSH_ALLOWED_HOSTS: "push.firma.mx" }).PUSH_ALLOWED_HOSTS).toEqual([
      "push.firma.mx",
    ]);
  });

  it("never contacts a stored endpoint the allow-list does not admit (saved before it existed): it is removed", async () => {
    const admin = await signInAs(t.app, "admin");
    const { user } = await buildUser(t.app.db.db, "operator");
    await t.app.db.db
      .insert(push_subscriptions)
      .values({ user_id: user.id, endpoint: `${internalBase}/internal/old`, keys: keys() });
    const before = internalHits.length;
    expect((await admin.api.post("/api/v1/notifications", { notification: { message: "Aviso viejo" } })).status).toBe(201);
    await t.app.pushes.idle();
    expect(internalHits.slice(before)).toEqual([]);
    expect(await t.app.db.db.select().from(push_subscriptions).where(eq(push_subscriptions.user_id, user.id))).toHaveLength(0);
  });

  it("never follows a push service's redirect", async () => {
    const { api, user } = await signInAs(t.app, "operator");
    const endpoint = `${trickyBase}/redirect/1`;
    expect((await subscribe(api, endpoint)).status).toBe(201);
    const before = internalHits.length;
    const outcome = await import("../../server/modules/push/service").then((m) =>
      m.pushTo(t.app, [user.id], { title: "x", body: "y" }),
    );
    expect(trickyHits).toContain("POST /redirect/1");
    expect(internalHits.slice(before)).toEqual([]);
    expect(outcome).toMatchObject({ sent: 0, failed: 1 });
    await t.app.db.db.delete(push_subscriptions).where(eq(push_subscriptions.endpoint, endpoint));
  });
});

describe("pushes go out after the answer, each bounded in time", () => {
  it("POST /notifications answers at once although three push services take 5 s each; the pushes are then sent", async () => {
    const admin = await signInAs(t.app, "admin");
    for (let i = 0; i < 3; i++) {
      const { api } = await signInAs(t.app, "operator");
      expect((await subscribe(api, `${trickyBase}/slow/${i}`)).status).toBe(201);
    }
    const alive = service.subscription();
    const reader = await signInAs(t.app, "finance");
    expect((await reader.api.post("/api/v1/push/subscriptions", { subscription: alive })).status).toBe(201);
    const before = service.received.length;
    const slowBefore = trickyHits.length;
    const started = performance.now();
    const res = await admin.api.post("/api/v1/notifications", { notification: { message: "Junta a las 10" } });
    const took = performance.now() - started;
    expect(res.status).toBe(201);
    expect(took).toBeLessThan(TIMEOUT_MS / 2);
    const drained = performance.now();
    await t.app.pushes.idle();
    const drainTook = performance.now() - drained;
    // Sent in parallel and cut at PUSH_TIMEOUT_MS: well under the 15 s the three would take in a row.
    expect(drainTook).toBeLessThan(2 * TIMEOUT_MS);
    expect(trickyHits.slice(slowBefore).filter((h) => h.startsWith("POST /slow/"))).toHaveLength(3);
    expect(service.received.slice(before).some((r) => r.path === new URL(alive.endpoint).pathname)).toBe(true);
    figures.noticeWithSlowPushMs = Math.round(took);
    figures.backgroundDrainMs = Math.round(drainTook);
  }, 30_000);
});

describe("subscriptions per user", () => {
  it(`keeps at most ${MAX_SUBSCRIPTIONS_PER_USER} devices per user, also under 40 parallel subscriptions`, async () => {
    const { api, user } = await signInAs(t.app, "operator");
    const { byStatus } = await burst(40, (i) => subscribe(api, `${service.base}/push/rafaga-${user.id}-${i}`));
    expect(byStatus).toEqual({ 201: 40 });
    const [{ n }] = await t.app.db.db
      .select({ n: sql<number>`count(*)::int` })
      .from(push_subscriptions)
      .where(eq(push_subscriptions.user_id, user.id));
    expect(n).toBe(MAX_SUBSCRIPTIONS_PER_USER);
    figures.parallelSubscriptions = 40;
    figures.keptSubscriptions = n;
  });
});
