/**
 * Stale writes (lost updates): two administrators save the same record from the same version. For every
 * declared resource with an update (iterated from server/modules, so a new resource is raced too) the
 * saves are fired together: exactly one is written, the others answer 409 with the record as it is now,
 * and the version moves by one. An update without a version is a 428. Figures in docs/security.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendar_mappings } from "../../server/db/schema";
import { resources } from "../../server/modules";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, call, signInAs } from "../support/factories";
import { recordFigures } from "../support/figures";
import { buildInvoice } from "../support/project-factories";
import { recordsOfEveryResource, together } from "../support/stale-writes";

const PREFIX = "/api/v1";
const RACERS = 10;
let t: TestApp;
let admin: ApiClient;
let ids: Record<string, number>;
const raced: string[] = [];
let written = 0;
let refused = 0;

/** The resources whose records can be updated, the activities' own PUT included. */
const updatable = resources.filter((r) => r.updateSchema && (!r.without?.includes("update") || r.name === "activities"));

const put = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  call(t.app, "PUT", url, payload, { authorization: `Bearer ${admin.token}`, ...headers });

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  ids = await recordsOfEveryResource(t);
}, 60_000);

afterAll(async () => {
  recordFigures(
    "seguridad-versiones",
    `${raced.length} recursos, ${RACERS} guardados simultáneos de la misma versión en cada uno: ${written} escritos, ${refused} rechazados 409`,
    { resources: raced.length, racers: RACERS, written, refused },
  );
  await t?.close();
});

describe("actualizaciones perdidas: cada recurso escribe solo la versión que se leyó", () => {
  it("conoce un registro de cada recurso con actualización", () => {
    expect(updatable.length).toBeGreaterThanOrEqual(19);
    const missing = updatable.filter((r) => ids[r.name] === undefined).map((r) => r.name);
    expect(missing, "recursos sin registro en tests/support/stale-writes.ts").toEqual([]);
  });

  it.each(updatable.map((r) => [r.name, r.singular]))(
    `%s: GET da la versión; ${RACERS} guardados simultáneos → uno escrito, los demás 409`,
    async (name, singular) => {
      const url = `${PREFIX}/${name}/${ids[name]}`;
      const read = await admin.get(url);
      expect(read.status).toBe(200);
      const version = read.body[singular].lock_version as number;
      expect(typeof version).toBe("number");
      expect(read.headers.etag).toBe(`"${version}"`);

      // Without a version: refused, nothing written.
      const blind = await put(url, { [singular]: {} });
      expect(blind.status).toBe(428);
      expect(blind.body.error).toBe(messages.versionRequired);

      const race = await together(RACERS, () => put(url, { [singular]: {} }, { "if-match": `"${version}"` }));
      expect(race.statuses, JSON.stringify(race.results.find((r) => r.status !== 200 && r.status !== 409)?.body)).toEqual({
        200: 1,
        409: RACERS - 1,
      });
      const winner = race.results.find((r) => r.status === 200)!;
      expect(winner.body[singular].lock_version).toBe(version + 1);
      expect(winner.headers.etag).toBe(`"${version + 1}"`);
      for (const loser of race.results.filter((r) => r.status === 409)) {
        expect(loser.body.error).toBe(messages.staleVersion);
      }
      const after = await admin.get(url);
      expect(after.body[singular].lock_version).toBe(version + 1);

      // The form's way: the version in the body (react-admin keeps it in the record).
      const again = await put(url, { [singular]: { lock_version: version + 1 } });
      expect(again.status).toBe(200);
      expect(again.body[singular].lock_version).toBe(version + 2);
      const stale = await put(url, { [singular]: { lock_version: version + 1 } });
      expect(stale.status).toBe(409);
      expect(stale.body[singular].lock_version).toBe(version + 2);

      raced.push(name);
      written += 1;
      refused += RACERS - 1;
    },
  );

  it("dos administradores cambian campos distintos de un cliente: ninguno se pierde", async () => {
    const url = `${PREFIX}/clients/${ids.clients}`;
    const { body } = await admin.get(url);
    const version = body.client.lock_version as number;
    const [first, second] = await Promise.all([
      put(url, { client: { name: "Nombre de la primera", lock_version: version } }),
      put(url, { client: { complete_name: "Razón de la segunda", lock_version: version } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const [won, lost] = first.status === 200 ? [first, second] : [second, first];
    // The refused one sees the record as the other left it, and its change was not half-written.
    expect(lost.body.client.lock_version).toBe(version + 1);
    expect(lost.body.client).toEqual(won.body.client);
    // It saves again from what it now sees: both changes stay.
    const retried = await put(url, {
      client: {
        ...(first.status === 200 ? { complete_name: "Razón de la segunda" } : { name: "Nombre de la primera" }),
        lock_version: version + 1,
      },
    });
    expect(retried.status).toBe(200);
    expect(retried.body.client.name).toBe("Nombre de la primera");
    expect(retried.body.client.complete_name).toBe("Razón de la segunda");
  });

  it("una acción propia (activar avisos de un espacio) mueve la versión: el formulario abierto antes queda viejo", async () => {
    const url = `${PREFIX}/workspaces/${ids.workspaces}`;
    const version = (await admin.get(url)).body.workspace.lock_version as number;
    const blind = await call(t.app, "PUT", `${url}/toggle_notification`, undefined, { authorization: `Bearer ${admin.token}` });
    expect(blind.status).toBe(428);
    const toggled = await call(t.app, "PUT", `${url}/toggle_notification`, undefined, {
      authorization: `Bearer ${admin.token}`,
      "if-match": `"${version}"`,
    });
    expect(toggled.status).toBe(200);
    expect(toggled.headers.etag).toBe(`"${version + 1}"`);
    const stale = await put(url, { workspace: { name: "Desde un formulario viejo", lock_version: version } });
    expect(stale.status).toBe(409);
    expect(stale.body.workspace.lock_version).toBe(version + 1);
    expect(stale.body.workspace.name).not.toBe("Desde un formulario viejo");
  });

  it("dos administradores activan y desactivan los avisos desde la misma lista: uno se aplica, el otro 409", async () => {
    const url = `${PREFIX}/workspaces/${ids.workspaces}`;
    const before = (await admin.get(url)).body.workspace;
    const toggle = () =>
      call(t.app, "PUT", `${url}/toggle_notification`, undefined, {
        authorization: `Bearer ${admin.token}`,
        "if-match": `"${before.lock_version}"`,
      });
    // Without the check both flips land and the switch ends where it started: one admin's change is lost.
    const race = await together(2, toggle);
    expect(race.statuses).toEqual({ 200: 1, 409: 1 });
    const refused = race.results.find((r) => r.status === 409);
    expect(refused?.body.workspace.lock_version).toBe(before.lock_version + 1);
    const after = (await admin.get(url)).body.workspace;
    expect(after.is_notifiable).toBe(!before.is_notifiable);
    expect(after.lock_version).toBe(before.lock_version + 1);
  });

  it("marcar la facturación de un proyecto desde una pantalla vieja → 409 y nada cambia", async () => {
    const url = `${PREFIX}/projects/${ids.projects}`;
    // «100% facturas ya realizadas» needs the invoices at 100 %: the project's 10 % and 90 % more.
    await buildInvoice(t.app.db.db, ids.projects, { percentage_value: 90 });
    const before = (await admin.get(url)).body.project;
    const mark = (action: string, version: number) =>
      call(
        t.app,
        "POST",
        `${url}/${action}`,
        { project: { audit_comment: "Facturación" } },
        { authorization: `Bearer ${admin.token}`, "if-match": `"${version}"` },
      );
    const race = await together(2, (i) => mark(i ? "completely_invoiced" : "partially_invoiced", before.lock_version));
    expect(race.statuses).toEqual({ 200: 1, 409: 1 });
    const after = (await admin.get(url)).body.project;
    expect(after.lock_version).toBe(before.lock_version + 1);
    const stale = await mark(
      after.invoice_action === "completely_invoiced" ? "partially_invoiced" : "completely_invoiced",
      before.lock_version,
    );
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(messages.staleVersion);
    expect((await admin.get(url)).body.project.invoice_action).toBe(after.invoice_action);
  });

  it("extender un proyecto con la versión que se leyó: vieja → 409 y nada cambia; sin versión, como antes", async () => {
    const url = `${PREFIX}/projects/${ids.projects}`;
    const before = (await admin.get(url)).body.project;
    const version = before.lock_version as number;
    const extend = (eta: string, headers: Record<string, string> = {}) =>
      call(
        t.app,
        "POST",
        `${url}/extend_project`,
        { project: { eta, audit_comment: "Extensión" } },
        {
          authorization: `Bearer ${admin.token}`,
          ...headers,
        },
      );
    // Two administrators extend from the same screen: one is written, the other told.
    const race = await together(2, (i) => extend(i ? "2041-02-01" : "2041-01-01", { "if-match": `"${version}"` }));
    expect(race.statuses).toEqual({ 200: 1, 409: 1 });
    const after = (await admin.get(url)).body.project;
    expect(after.lock_version).toBe(version + 1);
    const stale = await extend("2042-01-01", { "if-match": `"${version}"` });
    expect(stale.status).toBe(409);
    expect((await admin.get(url)).body.project.eta).toBe(after.eta);
    expect((await extend("2043-01-01")).status).toBe(200);
  });

  it.each([
    ["invoices", "invoice"],
    ["quotations", "quotation"],
  ])("%s: una transición tomada de una versión vieja → 409, nada cambia", async (name, singular) => {
    const url = `${PREFIX}/${name}/${ids[name]}`;
    const before = (await admin.get(url)).body[singular];
    const stale = await call(
      t.app,
      "POST",
      `${url}/aasm_transition`,
      { [singular]: { event: "cancel", audit_comment: "Desde una pantalla vieja" } },
      { authorization: `Bearer ${admin.token}`, "if-match": `"${before.lock_version + 7}"` },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(messages.staleVersion);
    const after = (await admin.get(url)).body[singular];
    expect(after.state).toBe(before.state);
    expect(after.lock_version).toBe(before.lock_version);
  });

  it("un upsert (ON CONFLICT DO UPDATE) también mueve la versión, sin ambigüedad con EXCLUDED", async () => {
    const db = t.app.db.db;
    const key = { user_id: ids.users, series_key: "serie-versiones" };
    const upsert = () =>
      db
        .insert(calendar_mappings)
        .values({ ...key, mapping: { description: "x" } })
        .onConflictDoUpdate({
          target: [calendar_mappings.user_id, calendar_mappings.series_key],
          set: { mapping: { description: "y" } },
        })
        .returning({ lock_version: calendar_mappings.lock_version });
    expect((await upsert())[0].lock_version).toBe(0);
    expect((await upsert())[0].lock_version).toBe(1);
  });

  it("/api/docs dice, en cada PUT y en cada acción que la comprueba, cómo mandar la versión y qué responde", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json", headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<
      string,
      Record<string, { parameters?: { in: string; name: string }[]; description?: string }>
    >;
    const ifMatch = (op?: { parameters?: { in: string; name: string }[] }) =>
      !!op?.parameters?.some((p) => p.in === "header" && p.name.toLowerCase() === "if-match");
    const puts = Object.entries(paths).filter(([path, ops]) => ops.put && /\{id\}$/.test(path) && !path.endsWith("/read"));
    expect(puts.length).toBeGreaterThanOrEqual(19);
    for (const [path, ops] of puts) {
      expect(ifMatch(ops.put), path).toBe(true);
      expect(ops.put.description, path).toMatch(/428.*409/);
    }
    for (const path of [
      "/api/v1/projects/{id}/extend_project",
      "/api/v1/projects/{id}/completely_invoiced",
      "/api/v1/invoices/{id}/aasm_transition",
      "/api/v1/quotations/{id}/aasm_transition",
    ]) {
      expect(ifMatch(paths[path]?.post), path).toBe(true);
      expect(paths[path].post.description, path).toMatch(/409/);
    }
    expect(ifMatch(paths["/api/v1/workspaces/{id}/toggle_notification"]?.put)).toBe(true);
  });

  it("una versión ilegible es un 422 en lock_version, nunca un 500", async () => {
    const url = `${PREFIX}/clients/${ids.clients}`;
    for (const bad of ['"abc"', '"-1"', '"1e99"', '"1e3"', 'W/"0"', '"0.5"']) {
      const response = await put(url, { client: {} }, { "if-match": bad });
      expect(response.status, bad).toBe(422);
      expect(response.body.errors.lock_version).toEqual([messages.invalidVersion]);
    }
    // In the body: only a whole number (true is not version 1, [0] is not version 0).
    for (const bad of [true, [0], "1e3", { v: 1 }]) {
      const response = await put(url, { client: { lock_version: bad } });
      expect(response.status, JSON.stringify(bad)).toBe(422);
    }
    // Header and body that disagree: refused, not silently resolved.
    const version = (await admin.get(url)).body.client.lock_version as number;
    const both = await put(url, { client: { lock_version: version + 1 } }, { "if-match": `"${version}"` });
    expect(both.status).toBe(422);
  });
});
