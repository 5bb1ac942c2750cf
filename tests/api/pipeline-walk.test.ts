/**
 * A walk of the whole commercial pipeline, as the firm's administrators and finance staff do it:
 * prospect, quotation, approval, the project's life, invoices to 100 %, a second quotation on the same
 * prospect, a conversion with an open quotation, renames and a project moved to another client. At the
 * end: exactly one client per won prospect, one project per approval, and folders that match the records.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, project_types, projects, prospects } from "../../server/db/schema";
import { listAll } from "../../server/ports/documents";
import { CLIENT_FOLDERS, PROJECT_FOLDERS } from "../../src/core/constants";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildProduct, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let finance: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  finance = (await signInAs(t.app, "finance")).api;
  await t.app.db.db.insert(project_types).values({ id: 6, name: "Cotización aprobada" }).onConflictDoNothing();
});
afterAll(() => t.close());

const ok = <T extends { status: number; body: unknown }>(res: T, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as Record<string, Record<string, unknown> & { id: number }>;
};
const names = async (folderId: string) => (await listAll(t.app.documents, folderId)).map((i) => i.name).sort();
const transition = async (id: number, event: string) =>
  ok(await admin.post(`/api/v1/quotations/${id}/aasm_transition`, { quotation: { event, audit_comment: `Paso ${event}` } }))
    .quotation;
const quotationFor = async (prospectId: number, productId: number) =>
  ok(
    await admin.post("/api/v1/quotations", {
      quotation: { contact_name: "Marta Ruiz", prospect_id: prospectId, product_catalog_id: productId },
    }),
    201,
  ).quotation;
const approve = async (id: number) => {
  await transition(id, "approve_demo");
  await transition(id, "request_contract");
  return transition(id, "approve_quote");
};
const projectEvent = async (id: number, event: string, extra: Record<string, unknown> = {}) =>
  ok(await admin.post(`/api/v1/projects/${id}/aasm_transition`, { project: { event, audit_comment: `Paso ${event}`, ...extra } }))
    .project;

/** Every client and project of the walk has its own folder, named after it, where it belongs. */
async function expectFoldersMatchRecords(clientIds: number[]) {
  const port = t.app.documents;
  const rows = await t.app.db.db.select().from(clients).where(inArray(clients.id, clientIds));
  const seen = new Set<string>();
  for (const client of rows) {
    const folder = await port.info(client.drive_root_id as string);
    expect(folder?.kind, `folder of client ${client.name}`).toBe("folder");
    expect(folder?.name).toBe(client.name);
    expect(client.drive_root_url).toBe(folder?.url);
    expect(seen.has(folder!.id)).toBe(false);
    seen.add(folder!.id);
    for (const name of CLIENT_FOLDERS) expect(await names(folder!.id)).toContain(name);
    const proyectos = (await listAll(port, folder!.id)).find((i) => i.name === "Proyectos")!;
    const own = await t.app.db.db.select().from(projects).where(eq(projects.client_id, client.id));
    expect((await names(proyectos.id)).length, `project folders of ${client.name}`).toBe(own.length);
    for (const project of own) {
      const pf = await port.info(project.drive_root_id as string);
      expect(pf?.name, `folder of ${project.project_code}`).toBe(`${project.project_code} ${project.name}`);
      expect(pf?.parentId).toBe(proyectos.id);
      expect(project.drive_root_url).toBe(pf?.url);
      expect(seen.has(pf!.id)).toBe(false);
      seen.add(pf!.id);
      expect(await names(pf!.id)).toEqual([...PROJECT_FOLDERS].sort());
    }
  }
}

describe("the whole pipeline", () => {
  it("leaves one client per won prospect, one project per approval, and folders that match the records", async () => {
    const product = await buildProduct(t.app.db.db, { name: "Nómina" });
    const other = await buildProduct(t.app.db.db, { name: "Timbrado" });

    // 1. A prospect and its quotation, approved: the client and its first project.
    const prospect = ok(await admin.post("/api/v1/prospects", { prospect: { name: "Grupo Ñandú" } }), 201).prospect;
    const first = await approve((await quotationFor(prospect.id, product.id)).id);
    expect(first.state).toBe("finalizada");
    const clientId = first.client_id as number;
    const projectId = first.project_id as number;

    // 2. The project's life: proposal, execution; its invoices up to 100 %, each resolved with its folio.
    await projectEvent(projectId, "enviar_propuesta");
    await projectEvent(projectId, "iniciar_ejecucion");
    for (const [percentage, folio] of [
      [60, "A-9001"],
      [40, "A-9002"],
    ] as const) {
      const invoice = ok(
        await finance.post("/api/v1/invoices", { invoice: { project_id: projectId, percentage_value: percentage } }),
        201,
      ).invoice;
      ok(
        await finance.post(`/api/v1/invoices/${invoice.id}/aasm_transition`, {
          invoice: { event: "resolver", audit_comment: "Pagada", folio },
        }),
      );
    }
    const missing = ok(await finance.get(`/api/v1/invoices/percentage_to_invoice?project_id=${projectId}`));
    expect(missing.missing_percentage).toBe(0);
    ok(await finance.post(`/api/v1/projects/${projectId}/completely_invoiced`, { audit_comment: "Todo facturado" }));

    // 3. A second quotation on the same prospect: the same client, a second project.
    const second = await approve((await quotationFor(prospect.id, other.id)).id);
    expect(second.client_id).toBe(clientId);
    expect(second.project_id).not.toBe(projectId);

    // 4. Another prospect converted with an open quotation, which goes on as the client's.
    const p2 = ok(await admin.post("/api/v1/prospects", { prospect: { name: "Óptica Zaragoza" } }), 201).prospect;
    const open = await quotationFor(p2.id, product.id);
    await transition(open.id, "approve_demo");
    const target = ok(await admin.post("/api/v1/drive/folders", { folder: { name: "Óptica Zaragoza" } }), 201).folder;
    const converted = ok(
      await admin.post(`/api/v1/prospects/${p2.id}/convert_to_client`, {
        client: { name: "Óptica Zaragoza", drive_root_id: target.id },
      }),
      201,
    ).client;
    await transition(open.id, "request_contract");
    const third = await transition(open.id, "approve_quote");
    expect(third.client_id).toBe(converted.id);

    // 5. Renames and a move: the client, a project, and the second project moved to the other client.
    ok(await admin.put(`/api/v1/clients/${clientId}`, { client: { name: "Grupo Ñandú Logística" } }));
    ok(await admin.put(`/api/v1/projects/${projectId}`, { project: { name: "Nómina Ñandú 2027" } }));
    ok(await admin.put(`/api/v1/projects/${second.project_id}`, { project: { client_id: converted.id } }));

    // Exactly one client per won prospect, one project per approval.
    const made = await t.app.db.db
      .select()
      .from(clients)
      .where(inArray(clients.name, ["Grupo Ñandú", "Grupo Ñandú Logística"]));
    expect(made).toHaveLength(1);
    expect(made[0].prospect_id).toBe(prospect.id);
    expect(await t.app.db.db.select().from(clients).where(eq(clients.name, "Óptica Zaragoza"))).toHaveLength(1);
    expect(await t.app.db.db.select().from(prospects).where(eq(prospects.id, p2.id))).toEqual([]);
    const all = await t.app.db.db
      .select()
      .from(projects)
      .where(inArray(projects.client_id, [clientId, converted.id]));
    expect(all).toHaveLength(3);
    await expectFoldersMatchRecords([clientId, converted.id]);
  });
});
