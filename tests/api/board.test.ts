/**
 * Project boards: every rule through the API (length, can_chat, membership, mentions, receipts,
 * unread counts, paging, text only), the realtime stream over a real HTTP connection (delivery, resume
 * from the last id, receipts, notifications) and its fan-out to a second server on the same database.
 */
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignments, notifications, project_messages } from "../../server/db/schema";
import { emailUnseenMentions } from "../../server/jobs/mentionEmail";
import { streamTiming } from "../../server/modules/board/stream";
import { boardMessages } from "../../src/core/messages";
import { handleOf } from "../../src/core/schemas/board";
import { SESSION_STAMP_HEADER, sessionStamp } from "../../src/core/session";
import { buildSiblingApp, buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, buildProduct, buildUser, signIn } from "../support/factories";
import { buildProject } from "../support/project-factories";
import { openStream } from "../support/sse";

let t: TestApp;
const db = () => t.app.db.db;
type Person = Awaited<ReturnType<typeof buildUser>> & { api: ApiClient };
let pm: Person;
let rape: Person;
let assigned: Person;
let mute: Person;
let outsider: Person;
let admin: Person;
let projectId: number;
let otherProjectId: number;
let base: string;

const person = async (role: "admin" | "operator", canChat: boolean): Promise<Person> => {
  const built = await buildUser(db(), role, { can_chat: canChat });
  return { ...built, api: await signIn(t.app, built.user.email) };
};
const url = (path = "", id = projectId) => `/api/v1/projects/${id}/messages${path}`;
const post = (who: Person, body: string, id = projectId) => who.api.post(url("", id), { message: { body } });
const at = (who: Person) => `@${handleOf(who.user.email)}`;

beforeAll(async () => {
  t = await buildTestApp();
  const client = await buildClient(db());
  const product = await buildProduct(db());
  pm = await person("operator", true);
  rape = await person("operator", true);
  assigned = await person("operator", true);
  mute = await person("operator", false);
  outsider = await person("operator", true);
  admin = await person("admin", false);
  for (const p of [assigned, mute]) {
    await db().insert(assignments).values({
      employee_id: p.employee!.id,
      client_id: client.id,
      product_catalog_id: product.id,
      start_on: "2026-01-01",
      end_on: "2026-12-31",
    });
  }
  const project = await buildProject(db(), {
    client_id: client.id,
    product_catalog_id: product.id,
    pm_id: pm.employee!.id,
    rape_id: rape.employee!.id,
  });
  projectId = project.id;
  otherProjectId = (await buildProject(db(), { pm_id: outsider.employee!.id })).id;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("tablero: reglas de escritura", () => {
  it("acepta hasta 500 caracteres (recortados) y rechaza más o nada, en español", async () => {
    const exact = "x".repeat(500);
    const ok = await post(pm, `  ${exact}  `);
    expect(ok.status).toBe(201);
    expect(ok.body.message.body).toBe(exact);
    const long = await post(pm, "y".repeat(501));
    expect(long.status).toBe(422);
    expect(long.body.errors.body).toEqual([boardMessages.bodyTooLong(500)]);
    expect(long.body.errors.body[0]).toBe("El mensaje no puede exceder 500 caracteres");
    const empty = await post(pm, "   ");
    expect(empty.status).toBe(422);
    expect(empty.body.errors.body).toEqual([boardMessages.bodyRequired]);
    // The database holds what no person's 500 characters can pass (8000 code points).
    await expect(
      db()
        .insert(project_messages)
        .values({ project_id: projectId, user_id: pm.user.id, body: "z".repeat(8001) }),
    ).rejects.toThrow();
  });

  it("cuenta los caracteres como se ven: un emoji es uno", async () => {
    // 👍 is 2 UTF-16 units, 👍🏽 is 4, a family 11: each is one character to whoever writes it.
    const thumbs = "👍".repeat(500);
    const ok = await post(pm, thumbs);
    expect(ok.status).toBe(201);
    expect(ok.body.message.body).toBe(thumbs);
    const families = await post(pm, "👨‍👩‍👧‍👦".repeat(500));
    expect(families.status).toBe(201);
    const mixed = await post(pm, `${"á".repeat(499)}👍🏽`);
    expect(mixed.status).toBe(201);
    const over = await post(pm, "👍".repeat(501));
    expect(over.status).toBe(422);
    expect(over.body.errors.body).toEqual(["El mensaje no puede exceder 500 caracteres"]);
    // One character piled with thousands of marks is still refused, not stored without bound.
    const piled = await post(pm, `a${"\u0301".repeat(9000)}`);
    expect(piled.status).toBe(422);
    expect(piled.body.errors.body).toEqual(["El mensaje no puede exceder 500 caracteres"]);
  });

  it("solo quien tiene can_chat escribe; un miembro sin él lee", async () => {
    const refused = await post(mute, "Hola");
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(boardMessages.cannotChat);
    expect((await mute.api.get(url())).status).toBe(200);
    // An administrator reads every board, and still needs can_chat to write.
    expect((await admin.api.get(url())).status).toBe(200);
    expect((await post(admin, "Hola")).status).toBe(403);
  });

  it("can_chat cambiado por un administrador rige desde la siguiente petición de la misma sesión", async () => {
    const member = await person("operator", false);
    await db()
      .insert(assignments)
      .values({
        employee_id: member.employee!.id,
        client_id: (await buildClient(db())).id,
        product_catalog_id: (await buildProduct(db())).id,
        start_on: "2026-01-01",
        end_on: "2026-12-31",
      });
    const otherProject = await buildProject(db(), { pm_id: member.employee!.id });
    const before = await member.api.get("/api/v1/sessions/current");
    expect(before.body.user.can_chat).toBe(false);
    expect((await post(member, "Antes", otherProject.id)).status).toBe(403);
    const stampBefore = before.headers[SESSION_STAMP_HEADER];
    expect(stampBefore).toBe(sessionStamp(before.body.user));

    const granted = await admin.api.put(`/api/v1/users/${member.user.id}`, { user: { can_chat: true } });
    expect(granted.status).toBe(200);
    // Same session, no new sign-in: the next request writes, and its answer carries the new stamp the
    // browser compares with the user it keeps (then it reads sessions/current again).
    const sent = await post(member, "Ya puedo escribir", otherProject.id);
    expect(sent.status).toBe(201);
    const after = await member.api.get("/api/v1/sessions/current");
    expect(after.body.user.can_chat).toBe(true);
    expect(sent.headers[SESSION_STAMP_HEADER]).toBe(sessionStamp(after.body.user));
    expect(sent.headers[SESSION_STAMP_HEADER]).not.toBe(stampBefore);

    const revoked = await admin.api.put(`/api/v1/users/${member.user.id}`, { user: { can_chat: false } });
    expect(revoked.status).toBe(200);
    const refused = await post(member, "Ya no", otherProject.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(boardMessages.cannotChat);
    expect(refused.headers[SESSION_STAMP_HEADER]).toBe(stampBefore);
  });

  it("quien no es del proyecto no lee ni escribe; un proyecto que no existe es 404", async () => {
    expect((await outsider.api.get(url())).status).toBe(403);
    expect((await post(outsider, "Me cuelo")).status).toBe(403);
    expect((await outsider.api.get(`/api/v1/projects/${projectId}/members`)).status).toBe(403);
    expect((await outsider.api.post(url("/read"), {})).status).toBe(403);
    expect((await pm.api.get(url("", 987654))).status).toBe(404);
    // The outsider's own project is theirs.
    expect((await post(outsider, "Mi proyecto", otherProjectId)).status).toBe(201);
    // The project tells each user whether they read its board, so its page never asks to be refused.
    expect((await outsider.api.get(`/api/v1/projects/${projectId}`)).body.project.board_member).toBe(false);
    expect((await outsider.api.get(`/api/v1/projects/${otherProjectId}`)).body.project.board_member).toBe(true);
    expect((await mute.api.get(`/api/v1/projects/${projectId}`)).body.project.board_member).toBe(true);
    expect((await admin.api.get(`/api/v1/projects/${projectId}`)).body.project.board_member).toBe(true);
  });

  it("los miembros son PM, responsable, asignados y autores, con su identificador para mencionar", async () => {
    const response = await pm.api.get(`/api/v1/projects/${projectId}/members`);
    expect(response.status).toBe(200);
    const ids = response.body.members.map((m: { id: number }) => m.id).sort();
    expect(ids).toEqual([pm, rape, assigned, mute].map((p) => p.user.id).sort());
    const mine = response.body.members.find((m: { id: number }) => m.id === rape.user.id);
    expect(mine).toMatchObject({ name: rape.user.name, handle: handleOf(rape.user.email), can_chat: true });
    expect(mine.email).toBeUndefined();
  });
});

describe("tablero: menciones", () => {
  it("no deja mencionarse a uno mismo ni a quien no es del proyecto", async () => {
    const self = await post(pm, `Nota para mí ${at(pm)}`);
    expect(self.status).toBe(422);
    expect(self.body.errors.body).toEqual(["No puedes mencionarte a ti mismo"]);
    const stranger = await post(pm, `Hola ${at(outsider)}, ¿puedes ver?`);
    expect(stranger.status).toBe(422);
    expect(stranger.body.errors.body[0]).toMatch(/^Solo puedes mencionar a usuarios del proyecto/);
    const nobody = await post(pm, "Hola @nadie.existe");
    expect(nobody.status).toBe(422);
    expect(nobody.body.errors.body).toEqual(["Solo puedes mencionar a usuarios del proyecto (@nadie.existe no participa en él)"]);
    // Two outsiders: the verb agrees with them.
    const two = await post(pm, `Hola ${at(outsider)} y @noexiste`);
    expect(two.status).toBe(422);
    expect(two.body.errors.body).toEqual([
      `Solo puedes mencionar a usuarios del proyecto (${at(outsider)}, @noexiste no participan en él)`,
    ]);
  });

  it("notifica solo a los mencionados; un correo en el texto no es mención", async () => {
    const before = await db().select().from(notifications);
    const response = await post(pm, `${at(rape)} y ${at(assigned)}: revisen. Escriban a soporte@empresa.mx.`);
    expect(response.status).toBe(201);
    expect([...response.body.mentioned].sort()).toEqual([rape.user.id, assigned.user.id].sort());
    const fresh = (await db().select().from(notifications)).filter((n) => !before.some((b) => b.id === n.id));
    expect(fresh.map((n) => n.user_id).sort()).toEqual([rape.user.id, assigned.user.id].sort());
    expect(fresh.every((n) => n.kind === "mention" && n.project_id === projectId && n.author_name === pm.user.name)).toBe(true);
    const bell = await rape.api.get("/api/v1/notifications");
    expect(bell.body.notifications[0]).toMatchObject({ kind: "mention", project_id: projectId, seen_at: null });
    expect((await mute.api.get("/api/v1/notifications")).body.notifications).toHaveLength(0);
    // Seen: only by its owner.
    const id = bell.body.notifications[0].id;
    expect((await assigned.api.put(`/api/v1/notifications/${id}/seen`)).status).toBe(404);
    const seen = await rape.api.put(`/api/v1/notifications/${id}/seen`);
    expect(seen.status).toBe(200);
    expect(seen.body.notification.seen_at).not.toBeNull();
  });

  it("envía por correo, una sola vez, las menciones no vistas en un día", async () => {
    const response = await post(rape, `${at(mute)} ${at(pm)} pendiente`);
    expect(response.status).toBe(201);
    const messageId = response.body.message.id;
    const rows = await db().select().from(notifications).where(eq(notifications.project_message_id, messageId));
    expect(rows).toHaveLength(2);
    await db()
      .update(notifications)
      .set({ created_at: new Date(Date.now() - 25 * 3600 * 1000) })
      .where(eq(notifications.project_message_id, messageId));
    // The PM saw theirs: only the other goes out.
    await db()
      .update(notifications)
      .set({ seen_at: new Date() })
      .where(and(eq(notifications.project_message_id, messageId), eq(notifications.user_id, pm.user.id)));
    const sent: string[] = [];
    const mail = {
      kind: "outbox" as const,
      check: async () => {},
      send: async (m: { to: string | string[]; subject: string; text: string }) => {
        sent.push(`${m.to}|${m.subject}|${m.text}`);
        return { messageId: "x" };
      },
    };
    const first = await db().transaction((tx) => emailUnseenMentions(tx, mail, new Date(), "https://sia.firma.mx"));
    expect(first.sent).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(mute.user.email);
    expect(sent[0]).toMatch(/https:\/\/sia\.firma\.mx\/app\/projects\/\d+\?tab=board/);
    expect(sent[0]).toContain("pendiente");
    const again = await db().transaction((tx) => emailUnseenMentions(tx, mail, new Date(), "https://sia.firma.mx"));
    expect(again.sent).toHaveLength(0);
    expect(sent).toHaveLength(1);
  });
});

describe("tablero: lecturas, no leídos e historial", () => {
  it("guarda quién leyó cada mensaje y cuenta los no leídos en la lista de proyectos y en el menú", async () => {
    const posted = await post(pm, "¿Alguien lo leyó?");
    const id = posted.body.message.id;
    const unread = async (who: Person) => {
      const list = await who.api.get(`/api/v1/projects?per_page=all&ids=${projectId}`);
      const summary = await who.api.get("/api/v1/notifications/summary");
      return { list: list.body.projects[0].unread_messages, menu: summary.body.unread_messages };
    };
    const before = await unread(assigned);
    expect(before.list).toBeGreaterThan(0);
    expect(before.menu).toBe(before.list);
    // The author has nothing unread on their own message.
    expect((await unread(pm)).list).toBe(0);
    // An outsider counts nothing on a board that is not theirs.
    expect((await unread(outsider)).menu).toBe(0);
    const read = await assigned.api.post(url("/read"), { read: { up_to_id: id } });
    expect(read.status).toBe(200);
    expect(read.body.unread_messages).toBe(0);
    expect(await unread(assigned)).toEqual({ list: 0, menu: 0 });
    const page = await pm.api.get(url());
    const message = page.body.messages.find((m: { id: number }) => m.id === id);
    expect(message.seen_by.map((s: { user_id: number; name: string }) => [s.user_id, s.name])).toEqual([
      [assigned.user.id, assigned.user.name],
    ]);
    // Reading again changes nothing.
    expect((await assigned.api.post(url("/read"), { read: { up_to_id: id } })).body.read).toBe(0);
    expect((await assigned.api.post(url("/read"), { read: { up_to_id: "x" } })).status).toBe(422);
  });

  it("pagina el historial de lo más reciente a lo más antiguo, cada página en orden", async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await post(assigned, `Página ${i}`)).body.message.id);
    const first = await pm.api.get(url("?per_page=2"));
    expect(first.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(3));
    expect(first.body.has_more).toBe(true);
    const second = await pm.api.get(url(`?per_page=2&before_id=${ids[3]}`));
    expect(second.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(1, 3));
    let cursor = ids[1];
    const all: number[] = [];
    for (;;) {
      const page = await pm.api.get(url(`?per_page=3&before_id=${cursor}`));
      all.unshift(...page.body.messages.map((m: { id: number }) => m.id));
      if (!page.body.has_more) break;
      cursor = page.body.messages[0].id;
    }
    const [{ n }] = (
      (await db().execute(
        sql`select count(*)::int as n from project_messages where project_id = ${projectId} and id < ${ids[1]}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    expect(all).toHaveLength(n);
    expect((await pm.api.get(url("?per_page=0"))).status).toBe(422);
  });

  it("guarda el HTML como texto, tal cual", async () => {
    const body = `<script>alert("x")</script><img src=x onerror=alert(1)> [a](javascript:alert(1))`;
    const response = await post(pm, body);
    expect(response.status).toBe(201);
    const page = await pm.api.get(url("?per_page=1"));
    expect(page.body.messages[0].body).toBe(body);
  });
});

describe("tablero en tiempo real (SSE)", () => {
  it("pide Accept: text/event-stream y sesión", async () => {
    const plain = await pm.api.get("/api/v1/realtime");
    expect(plain.status).toBe(406);
    expect(plain.body.error).toBe(boardMessages.streamOnly);
    const anonymous = openStream(base, "nada");
    await anonymous.opened;
    expect(anonymous.status).toBe(401);
    anonymous.close();
  });

  it("entrega mensajes, lecturas y notificaciones a quien le tocan, y reanuda desde el último id", async () => {
    const stream = openStream(base, rape.api.token);
    const outsiderStream = openStream(base, outsider.api.token);
    await stream.opened;
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await stream.waitFor((e) => e.event === "ready");
    await outsiderStream.waitFor((e) => e.event === "ready");
    const posted = await post(pm, `En vivo ${at(rape)}`);
    const live = await stream.waitFor((e) => e.event === "message" && e.data.id === posted.body.message.id);
    expect(live.id).toBe(String(posted.body.message.id));
    expect(live.data).toMatchObject({ body: `En vivo ${at(rape)}`, author_name: pm.user.name, project_id: projectId });
    const bell = await stream.waitFor((e) => e.event === "notification");
    expect(bell.data).toMatchObject({ kind: "mention", project_message_id: posted.body.message.id, user_id: rape.user.id });
    // The author's read is not announced; the reader's is.
    await assigned.api.post(url("/read"), { read: { up_to_id: posted.body.message.id } });
    const receipt = await stream.waitFor((e) => e.event === "receipt" && e.data.user_id === assigned.user.id);
    expect(receipt.data).toMatchObject({ project_id: projectId, name: assigned.user.name, up_to: posted.body.message.id });
    // Each event once per stream, however many streams the server holds.
    await outsiderStream.waitFor((e) => e.event === "ready");
    expect(stream.events.filter((e) => e.event === "message" && e.data.id === posted.body.message.id)).toHaveLength(1);
    expect(stream.events.filter((e) => e.event === "notification")).toHaveLength(1);
    expect(stream.events.filter((e) => e.event === "receipt" && e.data.user_id === assigned.user.id)).toHaveLength(1);
    const lastId = live.id as string;
    stream.close();

    // Messages while disconnected come back on reconnection (Last-Event-ID), in order, once.
    const missed = [(await post(pm, "Perdido 1")).body.message.id, (await post(assigned, "Perdido 2")).body.message.id];
    await post(outsider, "Otro proyecto", otherProjectId);
    const again = openStream(base, rape.api.token, { "last-event-id": lastId });
    await again.waitFor((e) => e.event === "ready");
    expect(again.events.filter((e) => e.event === "message").map((e) => e.data.id)).toEqual(missed);
    const byQuery = openStream(base, rape.api.token, {}, `?last_id=${lastId}`);
    await byQuery.waitFor((e) => e.event === "ready");
    expect(byQuery.events.filter((e) => e.event === "message").map((e) => e.data.id)).toEqual(missed);
    again.close();
    byQuery.close();

    // The outsider never saw this project's messages, only their own project's.
    await outsiderStream.waitFor((e) => e.event === "message" && e.data.project_id === otherProjectId);
    expect(outsiderStream.events.some((e) => e.event === "message" && e.data.project_id === projectId)).toBe(false);
    outsiderStream.close();
  }, 60_000);

  it("un aviso del proyecto (notify_user) llega en vivo al PM y al responsable, como una mención", async () => {
    const stream = openStream(base, rape.api.token);
    await stream.waitFor((e) => e.event === "ready");
    const sent = await admin.api.post(`/api/v1/projects/${projectId}/notify_user`, {
      project: { message: "Revisen la ETA en vivo" },
    });
    expect(sent.status).toBe(200);
    const bell = await stream.waitFor((e) => e.event === "notification" && e.data.message === "Revisen la ETA en vivo");
    expect(bell.data).toMatchObject({
      kind: "project",
      project_id: projectId,
      user_id: rape.user.id,
      author_name: admin.user.name,
    });
    stream.close();
  }, 30_000);

  it("envía latidos y termina el flujo cuando la sesión termina", async () => {
    const before = streamTiming.heartbeatMs;
    streamTiming.heartbeatMs = 150;
    try {
      const session = await signIn(t.app, mute.user.email);
      const stream = openStream(base, session.token);
      await stream.waitFor((e) => e.event === "ready");
      await stream.waitForRaw(/: ping/);
      expect(stream.ended).toBe(false);
      expect((await session.request("DELETE", "/api/v1/sessions")).status).toBeLessThan(300);
      await stream.waitForEnd();
      stream.close();
    } finally {
      streamTiming.heartbeatMs = before;
    }
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "PostgreSQL: si la conexión de LISTEN se cae, se reconecta y el flujo recupera lo perdido",
    async () => {
      expect(t.database.kind).toBe("pg");
      const stream = openStream(base, rape.api.token);
      await stream.waitFor((e) => e.event === "ready");
      const killed = (await t.database.rows(
        sql`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query ilike 'LISTEN %'`,
      )) as Array<{ done: boolean }>;
      expect(killed.length).toBeGreaterThan(0);
      const posted = await post(pm, "Mientras LISTEN estaba caído");
      await stream.waitFor((e) => e.event === "message" && e.data.id === posted.body.message.id, 20_000);
      // And live delivery works again afterwards.
      const after = await post(pm, "Ya reconectado");
      await stream.waitFor((e) => e.event === "message" && e.data.id === after.body.message.id, 20_000);
      stream.close();
    },
    60_000,
  );

  it("un segundo servidor sobre la misma base entrega lo escrito en el primero (LISTEN/NOTIFY)", async () => {
    const sibling = await buildSiblingApp(t);
    try {
      await sibling.app.listen({ port: 0, host: "127.0.0.1" });
      const siblingBase = `http://127.0.0.1:${(sibling.app.server.address() as AddressInfo).port}`;
      const there = openStream(siblingBase, assigned.api.token);
      await there.waitFor((e) => e.event === "ready");
      const posted = await post(pm, "Desde el otro proceso");
      await there.waitFor((e) => e.event === "message" && e.data.id === posted.body.message.id);
      const back = openStream(base, pm.api.token);
      await back.waitFor((e) => e.event === "ready");
      // A read recorded through the sibling reaches a stream on the first server.
      const siblingApi = await signIn(sibling.app, assigned.user.email);
      await siblingApi.post(url("/read"), { read: { up_to_id: posted.body.message.id } });
      await back.waitFor(
        (e) => e.event === "receipt" && e.data.user_id === assigned.user.id && e.data.up_to === posted.body.message.id,
      );
      there.close();
      back.close();
    } finally {
      await sibling.close();
    }
  }, 60_000);
});
