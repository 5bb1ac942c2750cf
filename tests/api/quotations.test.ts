/**
 * A quotation in a final state (Alta Cliente, Rechazada, Cancelada) is read-only — no edit, no
 * delete, not even one racing the approval — and each step's comment stays as its history.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { project_types, quotations } from "../../server/db/schema";
import { buildProduct, call } from "../support/factories";
import { quotationAt as newQuotationAt } from "../support/pipeline";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
  await t.app.db.db.insert(project_types).values({ id: 6, name: "Cotización aprobada" }).onConflictDoNothing();
});
afterAll(() => t.close());

const quotationAt = (name: string) => newQuotationAt(t.app.db.db, admin, name);
const transition = (id: number, event: string, audit_comment = "Comentario") =>
  admin.post(`/api/v1/quotations/${id}/aasm_transition`, { quotation: { event, audit_comment } });
const row = async (id: number) => (await t.app.db.db.select().from(quotations).where(eq(quotations.id, id)))[0];

async function approved(name: string) {
  const made = await quotationAt(name);
  for (const event of ["approve_demo", "request_contract", "approve_quote"]) {
    expect((await transition(made.q.id, event)).status).toBe(200);
  }
  return made;
}

describe("final quotations are read-only", () => {
  it("Alta Cliente, Rechazada and Cancelada refuse PUT and DELETE in Spanish; open ones are still edited", async () => {
    const other = await buildProduct(t.app.db.db, { name: "Otro producto" });
    const won = (await approved("Final Alta")).q;
    const rejected = (await quotationAt("Final Rechazo")).q;
    expect((await transition(rejected.id, "reject")).status).toBe(200);
    const cancelled = (await quotationAt("Final Cancela")).q;
    await transition(cancelled.id, "approve_demo");
    expect((await transition(cancelled.id, "cancel")).status).toBe(200);

    for (const [q, label] of [
      [won, "Alta Cliente"],
      [rejected, "Rechazada"],
      [cancelled, "Cancelada"],
    ] as const) {
      const before = await row(q.id);
      const put = await admin.put(`/api/v1/quotations/${q.id}`, {
        quotation: { product_catalog_id: other.id, contact_name: "Cambio" },
      });
      expect(put.status, label).toBe(422);
      expect(put.body.errors.base).toEqual([
        `La cotización está en «${label}»: es un registro final y ya no se puede modificar ni eliminar`,
      ]);
      const del = await admin.delete(`/api/v1/quotations/${q.id}`);
      expect(del.status, label).toBe(422);
      expect(del.body.errors.base).toEqual([`No se puede eliminar: la cotización está en «${label}», un estado final`]);
      const after = await row(q.id);
      expect(after).toMatchObject({
        product_catalog_id: before.product_catalog_id,
        contact_name: before.contact_name,
        lock_version: before.lock_version,
      });
    }

    // Finanzas reads quotations but never writes them; Operador does not see them (permission matrix).
    expect((await finance.put(`/api/v1/quotations/${won.id}`, { quotation: { contact_name: "x" } })).status).toBe(403);
    expect((await finance.delete(`/api/v1/quotations/${won.id}`)).status).toBe(403);
    expect((await operator.delete(`/api/v1/quotations/${won.id}`)).status).toBe(403);

    // An open quotation is still edited and deleted.
    const open = (await quotationAt("Abierta")).q;
    await transition(open.id, "approve_demo");
    const edit = await admin.put(`/api/v1/quotations/${open.id}`, { quotation: { product_catalog_id: other.id } });
    expect(edit.status).toBe(200);
    expect(edit.body.quotation.product_catalog_id).toBe(other.id);
    expect((await admin.delete(`/api/v1/quotations/${open.id}`)).status).toBe(200);
  });

  it("an edit and a delete racing the approval are refused; the approved quotation keeps its product", async () => {
    const { q, product } = await quotationAt("Carrera");
    await transition(q.id, "approve_demo");
    await transition(q.id, "request_contract");
    const other = await buildProduct(t.app.db.db, { name: "Producto de la carrera" });
    const read = await admin.get(`/api/v1/quotations/${q.id}`);
    const headers = { authorization: `Bearer ${admin.token}`, "if-match": read.headers.etag as string };

    // The approval holds the quotation's row while it builds the folders: the edit and the delete come then.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let racing: Promise<[Awaited<ReturnType<typeof call>>, Awaited<ReturnType<typeof call>>]> | undefined;
    const create = t.app.documents.createFolder.bind(t.app.documents);
    const spy = vi.spyOn(t.app.documents, "createFolder").mockImplementation(async (parent, name) => {
      if (!racing) {
        racing = Promise.all([
          call(t.app, "PUT", `/api/v1/quotations/${q.id}`, { quotation: { product_catalog_id: other.id } }, headers),
          call(t.app, "DELETE", `/api/v1/quotations/${q.id}`, undefined, { authorization: headers.authorization }),
        ]);
        setTimeout(release, 400);
        await gate;
      }
      return create(parent, name);
    });
    const approval = await transition(q.id, "approve_quote", "Firmado");
    spy.mockRestore();
    expect(approval.status).toBe(200);
    const [put, del] = await (racing as NonNullable<typeof racing>);
    // Refused either way: as stale (the approval moved the version) or as final once it waited for it.
    expect([409, 422]).toContain(put.status);
    expect(del.status).toBe(422);
    expect(del.body.errors.base[0]).toContain("Alta Cliente");
    expect(await row(q.id)).toMatchObject({ state: "finalizada", product_catalog_id: product.id });
  });
});

describe("quotation comment history", () => {
  it("keeps each step's comment with who, when and from → to; the record keeps the last", async () => {
    const { q } = await quotationAt("Historia");
    await transition(q.id, "approve_demo", "Le gustó la demo");
    await transition(q.id, "request_contract", "Pide contrato");
    const last = await transition(q.id, "approve_quote", "Firmado el contrato");
    expect(last.body.quotation.audit_comment).toBe("Firmado el contrato");

    const history = await finance.get(`/api/v1/quotations/${q.id}/audit_logs`);
    expect(history.status).toBe(200);
    const steps = history.body.audit_logs as Array<Record<string, unknown>>;
    expect(steps.map((s) => [s.field, s.old_value, s.new_value, s.old_value_label, s.new_value_label, s.comment])).toEqual([
      ["state", "demo", "contract", "Demo", "Contrato", "Le gustó la demo"],
      ["state", "contract", "quote", "Contrato", "Cotización", "Pide contrato"],
      ["state", "quote", "finalizada", "Cotización", "Alta Cliente", "Firmado el contrato"],
    ]);
    for (const step of steps) {
      expect(step.user_name).toBeTruthy();
      expect(Number.isNaN(Date.parse(String(step.created_at)))).toBe(false);
    }

    expect((await admin.get(`/api/v1/quotations/${q.id}/audit_logs`)).status).toBe(200);
    expect((await operator.get(`/api/v1/quotations/${q.id}/audit_logs`)).status).toBe(403);
    expect((await admin.get("/api/v1/quotations/999999/audit_logs")).status).toBe(404);
    expect((await admin.get("/api/v1/quotations/abc/audit_logs")).status).toBe(404);
  });
});
