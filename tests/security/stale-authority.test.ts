/**
 * Stale authority on a long-lived connection: the realtime stream (GET /api/v1/realtime) is opened with
 * the user's roles of that moment. It must not keep delivering what the user may no longer read once an
 * administrator demotes them, deactivates their employee or ends their sessions. Over a real HTTP
 * connection; the heartbeat (which also re-checks the session) is left at its 20 s so only the per-event
 * check can pass these tests.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamTiming } from "../../server/modules/board/stream";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildUser, signIn } from "../support/factories";
import { recordFigures } from "../support/figures";
import { buildProject } from "../support/project-factories";
import { openStream } from "../support/sse";

let t: TestApp;
let base: string;
let writer: ApiClient;
const db = () => t.app.db.db;
const figures = { scenarios: 0, leaked: 0 };

beforeAll(async () => {
  t = await buildTestApp();
  expect(streamTiming.heartbeatMs).toBeGreaterThanOrEqual(20_000);
  // An administrator who may write on every board.
  writer = await signIn(t.app, (await buildUser(db(), "admin", { can_chat: true })).user.email);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  recordFigures(
    "seguridad-autoridad",
    `${figures.scenarios} open streams losing their authority (demoted, deactivated, signed out): ${figures.leaked} messages delivered after it`,
    figures,
  );
  await t?.close();
});

const post = (projectId: number, body: string) => writer.post(`/api/v1/projects/${projectId}/messages`, { message: { body } });

/** A project the user is on (their employee is its PM) and one they are not on. */
async function projects(employeeId: number) {
  return {
    mine: (await buildProject(db(), { pm_id: employeeId })).id,
    foreign: (await buildProject(db())).id,
  };
}

describe("an open event stream follows the user's current authority", () => {
  it("an administrator demoted while streaming stops receiving boards of projects they are not on", async () => {
    const target = await buildUser(db(), "admin");
    const api = await signIn(t.app, target.user.email);
    const { mine, foreign } = await projects(target.employee!.id);
    const stream = openStream(base, api.token);
    await stream.opened;
    await stream.waitFor((e) => e.event === "ready");
    // As an administrator, every board reaches them.
    expect((await post(foreign, "antes de la degradación")).status).toBe(201);
    await stream.waitFor((e) => e.event === "message" && e.data.body === "antes de la degradación");

    const demoted = await writer.put(`/api/v1/users/${target.user.id}`, {
      user: { administrator_role: false, operator_role: true },
    });
    expect(demoted.status).toBe(200);
    expect((await post(foreign, "secreto tras la degradación")).status).toBe(201);
    expect((await post(mine, "su propio proyecto")).status).toBe(201);
    // Events are handled in order: once the later message of their own project arrives, the earlier one
    // of the other project would have too.
    await stream.waitFor((e) => e.event === "message" && e.data.body === "su propio proyecto");
    const leaked = stream.events.filter((e) => e.event === "message" && e.data.body === "secreto tras la degradación");
    figures.scenarios += 1;
    figures.leaked += leaked.length;
    expect(leaked).toEqual([]);
    expect(stream.ended).toBe(false);
    stream.close();
  });

  it("the stream of an employee deactivated while streaming ends at the next event and delivers nothing more", async () => {
    const target = await buildUser(db(), "operator");
    const api = await signIn(t.app, target.user.email);
    const { mine } = await projects(target.employee!.id);
    const stream = openStream(base, api.token);
    await stream.opened;
    await stream.waitFor((e) => e.event === "ready");
    expect((await post(mine, "antes de la baja")).status).toBe(201);
    await stream.waitFor((e) => e.event === "message" && e.data.body === "antes de la baja");

    const off = await writer.put(`/api/v1/employees/${target.employee!.id}`, { employee: { is_active: false } });
    expect(off.status).toBe(200);
    expect((await post(mine, "después de la baja")).status).toBe(201);
    await stream.waitForEnd(10_000);
    const leaked = stream.events.filter((e) => e.event === "message" && e.data.body === "después de la baja");
    figures.scenarios += 1;
    figures.leaked += leaked.length;
    expect(leaked).toEqual([]);
  });

  it("a stream whose session was signed out elsewhere ends at the next event, before any heartbeat", async () => {
    const target = await buildUser(db(), "operator");
    const api = await signIn(t.app, target.user.email);
    const { mine } = await projects(target.employee!.id);
    const stream = openStream(base, api.token);
    await stream.opened;
    await stream.waitFor((e) => e.event === "ready");
    expect((await api.delete("/api/v1/sessions")).status).toBe(200);
    expect((await post(mine, "tras cerrar sesión")).status).toBe(201);
    await stream.waitForEnd(10_000);
    const leaked = stream.events.filter((e) => e.event === "message" && e.data.body === "tras cerrar sesión");
    figures.scenarios += 1;
    figures.leaked += leaked.length;
    expect(leaked).toEqual([]);
  });
  it("having written on a board gives no lasting right to it: a demoted administrator and a replaced PM lose it", async () => {
    // An administrator who is not on the project writes on its board, then is demoted.
    const target = await buildUser(db(), "admin", { can_chat: true });
    const api = await signIn(t.app, target.user.email);
    const { foreign } = await projects(target.employee!.id);
    expect((await api.post(`/api/v1/projects/${foreign}/messages`, { message: { body: "como administrador" } })).status).toBe(
      201,
    );
    expect(
      (await writer.put(`/api/v1/users/${target.user.id}`, { user: { administrator_role: false, operator_role: true } })).status,
    ).toBe(200);
    expect((await api.get(`/api/v1/projects/${foreign}/messages`)).status).toBe(403);
    expect((await api.get(`/api/v1/projects/${foreign}/members`)).status).toBe(403);
    expect((await api.post(`/api/v1/projects/${foreign}/messages`, { message: { body: "ya no" } })).status).toBe(403);

    // A PM writes on their project's board, then another employee becomes its PM.
    const pm = await buildUser(db(), "operator", { can_chat: true });
    const pmApi = await signIn(t.app, pm.user.email);
    const { mine } = await projects(pm.employee!.id);
    expect((await pmApi.post(`/api/v1/projects/${mine}/messages`, { message: { body: "soy el PM" } })).status).toBe(201);
    const other = await buildUser(db(), "operator");
    expect((await writer.put(`/api/v1/projects/${mine}`, { project: { pm_id: other.employee!.id } })).status).toBe(200);
    expect((await post(mine, "CONFIDENCIAL tras el cambio de PM")).status).toBe(201);
    expect((await pmApi.get(`/api/v1/projects/${mine}/messages`)).status).toBe(403);
    const members = await writer.get(`/api/v1/projects/${mine}/members`);
    expect(members.body.members.map((m: { id: number }) => m.id)).not.toContain(pm.user.id);
  });
});
