/**
 * Notices (SPEC §7: POST notifications {notification: {message, author_name}}): administrators
 * only; to every user or to one notifiable workspace's employees; shown in the bell and pushed to the
 * recipients' subscribed devices (a local push service started here).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { employees, notices, notifications, users, workspaces } from "../../server/db/schema";
import { boardMessages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { buildUser, buildWorkspace, call, signIn, signInAs } from "../support/factories";
import { buildProject } from "../support/project-factories";
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

const inWorkspace = async (workspaceId: number) => {
  const built = await buildUser(db(), "operator");
  await db().update(employees).set({ workspace_id: workspaceId }).where(eq(employees.id, built.employee!.id));
  return { ...built, api: await signIn(t.app, built.user.email) };
};

describe("avisos (POST notifications)", () => {
  it("solo un administrador envía avisos; sin sesión 401; mensaje vacío 422 en español", async () => {
    const { api } = await signInAs(t.app, "operator");
    const refused = await api.post("/api/v1/notifications", { notification: { message: "Hola", author_name: "Yo" } });
    expect(refused.status).toBe(403);
    expect((await call(t.app, "POST", "/api/v1/notifications", { notification: { message: "Hola" } })).status).toBe(401);
    const admin = await signInAs(t.app, "admin");
    const empty = await admin.api.post("/api/v1/notifications", { notification: { message: "  " } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.message).toEqual([boardMessages.noticeRequired]);
  });

  it("a todos: una notificación por usuario, en la campana de cada uno, y push a sus dispositivos", async () => {
    const admin = await signInAs(t.app, "admin");
    const reader = await signInAs(t.app, "finance");
    const sub = service.subscription();
    expect((await reader.api.post("/api/v1/push/subscriptions", { subscription: sub })).status).toBe(201);
    const before = service.received.length;
    const response = await admin.api.post("/api/v1/notifications", {
      notification: { message: "Mantenimiento el sábado", author_name: "Dirección" },
    });
    expect(response.status).toBe(201);
    const everyone = await db().select({ id: users.id }).from(users);
    expect(response.body.notification.recipients).toBe(everyone.length);
    expect(response.body.message).toBe(boardMessages.noticeSent(everyone.length));
    const [notice] = await db().select().from(notices).where(eq(notices.id, response.body.notification.id));
    expect(notice).toMatchObject({ message: "Mantenimiento el sábado", author_name: "Dirección", workspace_id: null });
    const rows = await db().select().from(notifications).where(eq(notifications.notice_id, notice.id));
    expect(rows.map((r) => r.user_id).sort()).toEqual(everyone.map((u) => u.id).sort());
    const bell = await reader.api.get("/api/v1/notifications");
    expect(bell.body.notifications[0]).toMatchObject({
      kind: "notice",
      message: "Mantenimiento el sábado",
      author_name: "Dirección",
    });
    expect((await reader.api.get("/api/v1/notifications/summary")).body.unseen_notifications).toBe(1);
    // Pushes go out after the answer, in the background.
    await t.app.pushes.idle();
    const pushed = service.received.slice(before).filter((r) => r.path === new URL(sub.endpoint).pathname);
    expect(pushed).toHaveLength(1);
    expect(service.decrypt(sub.endpoint, pushed[0].body)).toMatchObject({
      title: boardMessages.noticeTitle("Dirección"),
      body: "Mantenimiento el sábado",
    });
  });

  it("a un espacio notificable: solo a sus empleados; a uno no notificable, 422 en español", async () => {
    const admin = await signInAs(t.app, "admin");
    const notifiable = await buildWorkspace(db());
    await db().update(workspaces).set({ is_notifiable: true }).where(eq(workspaces.id, notifiable.id));
    const quiet = await buildWorkspace(db());
    const member = await inWorkspace(notifiable.id);
    const elsewhere = await inWorkspace(quiet.id);
    const refused = await admin.api.post("/api/v1/notifications", {
      notification: { message: "Solo a ustedes", workspace_id: quiet.id },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.workspace_id).toEqual([boardMessages.workspaceNotNotifiable]);
    expect((await admin.api.post("/api/v1/notifications", { notification: { message: "x", workspace_id: 987654 } })).status).toBe(
      422,
    );
    const response = await admin.api.post("/api/v1/notifications", {
      notification: { message: "Junta del espacio", author_name: "RH", workspace_id: notifiable.id },
    });
    expect(response.status).toBe(201);
    expect(response.body.notification.recipients).toBe(1);
    const rows = await db().select().from(notifications).where(eq(notifications.notice_id, response.body.notification.id));
    expect(rows.map((r) => r.user_id)).toEqual([member.user.id]);
    expect(
      (await member.api.get("/api/v1/notifications")).body.notifications.map((n: { message: string }) => n.message),
    ).toContain("Junta del espacio");
    expect(
      (await elsewhere.api.get("/api/v1/notifications")).body.notifications.map((n: { message: string }) => n.message),
    ).not.toContain("Junta del espacio");
  });

  it("el aviso de un proyecto (notify_user) también llega como push al PM", async () => {
    const admin = await signInAs(t.app, "admin");
    const pm = await buildUser(db(), "operator");
    const project = await buildProject(db(), { pm_id: pm.employee!.id });
    const pmApi = await signIn(t.app, pm.user.email);
    const sub = service.subscription();
    expect((await pmApi.post("/api/v1/push/subscriptions", { subscription: sub })).status).toBe(201);
    const before = service.received.length;
    const sent = await admin.api.post(`/api/v1/projects/${project.id}/notify_user`, {
      project: { message: "Revisen la ETA" },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.notified).toBe(1);
    await t.app.pushes.idle();
    const pushed = service.received.slice(before).filter((r) => r.path === new URL(sub.endpoint).pathname);
    expect(pushed).toHaveLength(1);
    expect(service.decrypt(sub.endpoint, pushed[0].body)).toMatchObject({
      title: boardMessages.projectNoticeTitle(project.project_code, admin.user.name),
      body: "Revisen la ETA",
      url: `/app/projects/${project.id}`,
    });
  });
});
