/**
 * Web Push: the web-push adapter against a local push service started here (RFC 8030), with a
 * real subscription (P-256 key pair + auth secret): the request is RFC 8291/8292-shaped and decrypts;
 * VAPID keys are made once and shared by every process; 410 removes the subscription.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { app_keys, push_subscriptions } from "../../server/db/schema";
import { pushTo } from "../../server/modules/push/service";
import { buildSiblingApp, buildTestApp, type TestApp } from "../support/app";
import { call, signInAs } from "../support/factories";
import { startPushService } from "../support/push-service";

let t: TestApp;
let service: Awaited<ReturnType<typeof startPushService>>;
const db = () => t.app.db.db;

beforeAll(async () => {
  service = await startPushService();
  // The local push service is plain HTTP on loopback: admitted by name, as only tests can.
  t = await buildTestApp({ PUSH_ALLOWED_HOSTS: service.base });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await t?.close();
});

describe("Web Push", () => {
  it("makes the VAPID key pair once and every process on the database uses the same", async () => {
    const { api } = await signInAs(t.app, "operator");
    const sibling = await buildSiblingApp(t);
    try {
      const [a, b] = await Promise.all([t.app.push.publicKey(), sibling.app.push.publicKey()]);
      expect(a).toBe(b);
      expect(Buffer.from(a, "base64url")).toHaveLength(65);
      const response = await api.get("/api/v1/push/public_key");
      expect(response.status).toBe(200);
      expect(response.body.public_key).toBe(a);
      expect(await db().select().from(app_keys)).toHaveLength(1);
      await expect(t.app.push.check()).resolves.toBeUndefined();
      expect(t.app.push.kind).toBe("webpush");
    } finally {
      await sibling.close();
    }
  });

  it("registers one subscription per device, refuses a bad one in Spanish, and unsubscribes", async () => {
    const { api, user } = await signInAs(t.app, "operator");
    const sub = service.subscription();
    const created = await api.post("/api/v1/push/subscriptions", { subscription: sub });
    expect(created.status).toBe(201);
    // The same device again: still one row.
    expect((await api.post("/api/v1/push/subscriptions", { subscription: sub })).status).toBe(201);
    const rows = await db().select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, sub.endpoint));
    expect(rows).toHaveLength(1);
    expect(rows[0].user_id).toBe(user.id);
    const bad = await api.post("/api/v1/push/subscriptions", { subscription: { endpoint: "no es url", keys: {} } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toMatch(/suscripción|obligatorio/);
    const removed = await api.request("DELETE", "/api/v1/push/subscriptions", { subscription: { endpoint: sub.endpoint } });
    expect(removed.status).toBe(200);
    expect(removed.body.removed).toBe(1);
    expect(await db().select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, sub.endpoint))).toHaveLength(0);
    expect((await call(t.app, "GET", "/api/v1/push/public_key")).status).toBe(401);
  });

  it("sends an encrypted aes128gcm request with a VAPID Authorization and TTL that the subscriber decrypts", async () => {
    const sub = service.subscription();
    const before = service.received.length;
    const result = await t.app.push.send(sub, { title: "Hola", body: "Mensaje cifrado", url: "/app/projects/1" });
    expect(result).toBe("sent");
    const request = service.received[before];
    expect(request.path).toBe(new URL(sub.endpoint).pathname);
    expect(request.headers["content-encoding"]).toBe("aes128gcm");
    expect(request.headers["content-type"]).toBe("application/octet-stream");
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    const publicKey = await t.app.push.publicKey();
    expect(request.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    // The JWT names the push service's origin as audience and our subject (RFC 8292).
    const jwt = String(request.headers.authorization).split(" ")[1].slice(2, -1).split(".")[1];
    const claims = JSON.parse(Buffer.from(jwt.replace(/,$/, ""), "base64url").toString("utf8"));
    expect(claims.aud).toBe(service.base);
    expect(claims.sub).toBe("mailto:sia@localhost");
    expect(request.body.toString("utf8")).not.toContain("Mensaje cifrado");
    expect(service.decrypt(sub.endpoint, request.body)).toEqual({
      title: "Hola",
      body: "Mensaje cifrado",
      url: "/app/projects/1",
    });
  });

  it("a week returned by its reviewer reaches its employee's device, naming the week and the reason", async () => {
    const worker = await signInAs(t.app, "operator");
    const admin = await signInAs(t.app, "admin");
    const sub = service.subscription();
    expect((await worker.api.post("/api/v1/push/subscriptions", { subscription: sub })).status).toBe(201);
    const sent = await worker.api.post("/api/v1/week_reviews/submit", { week_start: "2025-05-05" });
    expect(sent.status, sent.text).toBe(200);
    const before = service.received.length;
    const { id, lock_version } = sent.body.week_review;
    const returned = await admin.api.post(`/api/v1/week_reviews/${id}/return`, { reason: "Falta el jueves", lock_version });
    expect(returned.status, returned.text).toBe(200);
    // Pushed in the background, after the answer.
    for (let i = 0; i < 100 && service.received.length === before; i++) await new Promise((r) => setTimeout(r, 50));
    const request = service.received.slice(before).find((r) => r.path === new URL(sub.endpoint).pathname);
    expect(request).toBeDefined();
    expect(service.decrypt(sub.endpoint, (request as { body: Buffer }).body)).toMatchObject({
      title: "Tu semana del 05/05/2025 al 11/05/2025 fue devuelta",
      body: `${admin.user.name} devolvió tu semana del 05/05/2025 al 11/05/2025: Falta el jueves`,
      url: "/app/activities?semana=2025-05-05",
    });
  });

  it("deletes a subscription the push service answers 410 Gone for, and keeps the others", async () => {
    const { api, user } = await signInAs(t.app, "operator");
    const alive = service.subscription();
    const dead = service.subscription();
    for (const sub of [alive, dead])
      expect((await api.post("/api/v1/push/subscriptions", { subscription: sub })).status).toBe(201);
    service.markGone(dead.endpoint);
    expect(await t.app.push.send(dead, { title: "x", body: "y" })).toBe("gone");
    const outcome = await pushTo(t.app, [user.id], { title: "Aviso", body: "Para ti" });
    expect(outcome).toEqual({ sent: 1, removed: 1, failed: 0 });
    const left = await db().select().from(push_subscriptions).where(eq(push_subscriptions.user_id, user.id));
    expect(left.map((s) => s.endpoint)).toEqual([alive.endpoint]);
  });
});
