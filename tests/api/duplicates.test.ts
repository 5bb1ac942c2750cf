/**
 * Look-alikes: a client named like another (case, accents, spaces) or with its RFC is a warning the person
 * confirms past, at creation and at a prospect's conversion; a client group named like another is refused.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, project_types, prospects } from "../../server/db/schema";
import { buildProspect } from "../support/catalog-factories";
import { buildClient } from "../support/factories";
import { quotationAt } from "../support/pipeline";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin } = {} as AppWithRoles;
beforeAll(async () => {
  ({ t, admin } = await buildAppWithRoles());
});
afterAll(() => t.close());

const GROUP_TAKEN = "ya existe un grupo con ese nombre (sin importar mayúsculas, acentos ni espacios)";

let folders = 0;
async function folder() {
  const res = await admin.post("/api/v1/drive/folders", { folder: { name: `Duplicados ${++folders}` } });
  expect(res.status).toBe(201);
  return { drive_root_id: res.body.folder.id as string };
}
const countNamed = async (name: string) => (await t.app.db.db.select().from(clients).where(eq(clients.name, name))).length;

describe("client groups", () => {
  it("refuses a name that differs only in case, accents or spaces, on create and on rename", async () => {
    const first = await admin.post("/api/v1/client_groups", { client_group: { name: "Agroindustria" } });
    expect(first.status).toBe(201);
    for (const name of ["agroindustria ", "AGROINDUSTRIA", "Agroindústria", "  agroindustria  "]) {
      const res = await admin.post("/api/v1/client_groups", { client_group: { name } });
      expect(res.status, name).toBe(422);
      expect(res.body.errors).toEqual({ name: [GROUP_TAKEN] });
    }
    const spaced = await admin.post("/api/v1/client_groups", { client_group: { name: "Gobierno  Federal" } });
    expect(spaced.status).toBe(201);
    expect((await admin.post("/api/v1/client_groups", { client_group: { name: "gobierno federal" } })).body.errors).toEqual({
      name: [GROUP_TAKEN],
    });
    const other = await admin.post("/api/v1/client_groups", { client_group: { name: "Minería" } });
    const renamed = await admin.put(`/api/v1/client_groups/${other.body.client_group.id}`, {
      client_group: { name: "agroindustria" },
    });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors).toEqual({ name: [GROUP_TAKEN] });
  });

  it("lets two administrators racing with look-alike names make only one", async () => {
    const answers = await Promise.all(
      ["Turismo", "turismo "].map((name) => admin.post("/api/v1/client_groups", { client_group: { name } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect(answers.find((a) => a.status === 422)?.body.errors).toEqual({ name: [GROUP_TAKEN] });
  });
});

describe("look-alike clients", () => {
  it("warns at creation about the same name (case, accents, spaces) or the same RFC, and saves once confirmed", async () => {
    await buildClient(t.app.db.db, { name: "Cementos del Istmo", client_code: "9101", rfc: "CIS010101AB1" });
    const warned = await admin.post("/api/v1/clients", { client: { name: "  cementos  DEL istmo", ...(await folder()) } });
    expect(warned.status).toBe(422);
    expect(warned.body.errors.confirm_similar).toEqual([
      "Ya existe un cliente parecido (mismo nombre o RFC): Cementos del Istmo (9101, RFC CIS010101AB1). Revise que no sea el mismo antes de continuar.",
    ]);
    expect(warned.body.similar_clients).toEqual([
      expect.objectContaining({ name: "Cementos del Istmo", client_code: "9101", rfc: "CIS010101AB1" }),
    ]);
    const sameRfc = await admin.post("/api/v1/clients", {
      client: { name: "Otra Razón", rfc: "cis010101ab1", ...(await folder()) },
    });
    expect(sameRfc.status).toBe(422);
    expect(sameRfc.body.similar_clients[0].name).toBe("Cementos del Istmo");
    const accents = await admin.post("/api/v1/clients", { client: { name: "Cementos del Ístmo", ...(await folder()) } });
    expect(accents.status).toBe(422);

    const confirmed = await admin.post("/api/v1/clients", {
      client: { name: "Cementos del Istmo", confirm_similar: true, ...(await folder()) },
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.client).not.toHaveProperty("confirm_similar");
    expect(await countNamed("Cementos del Istmo")).toBe(2);
    // An unrelated name passes without a word; editing a client does not ask again.
    expect((await admin.post("/api/v1/clients", { client: { name: "Aceros del Norte", ...(await folder()) } })).status).toBe(201);
    const edited = await admin.put(`/api/v1/clients/${confirmed.body.client.id}`, { client: { complete_name: "Cementos SA" } });
    expect(edited.status).toBe(200);
  });

  it("warns at a prospect's conversion, leaving the prospect as it was, and converts once confirmed", async () => {
    await buildClient(t.app.db.db, { name: "Óptica Luz", client_code: "9201", rfc: "OLU010101AB1" });
    const prospect = await buildProspect(t.app.db.db, { name: "OPTICA LUZ" });
    const target = await folder();
    const warned = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "OPTICA  LUZ", ...target },
    });
    expect(warned.status).toBe(422);
    expect(warned.body.errors.confirm_similar[0]).toContain("Óptica Luz (9201, RFC OLU010101AB1)");
    expect((await t.app.db.db.select().from(prospects).where(eq(prospects.id, prospect.id))).length).toBe(1);
    const converted = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "OPTICA  LUZ", confirm_similar: true, ...target },
    });
    expect(converted.status).toBe(201);
    expect(converted.body.client).toMatchObject({ name: "OPTICA  LUZ", was_prospect: true });
  });

  it("warns when approving a quotation makes its prospect a client; nothing changes until confirmed", async () => {
    await t.app.db.db.insert(project_types).values({ id: 6, name: "Cotización aprobada" }).onConflictDoNothing();
    await buildClient(t.app.db.db, { name: "Hidráulica Sur", client_code: "9301" });
    const { q, prospect } = await quotationAt(t.app.db.db, admin, "HIDRAULICA  SUR ");
    const step = (event: string, extra: Record<string, unknown> = {}) =>
      admin.post(`/api/v1/quotations/${q.id}/aasm_transition`, { quotation: { event, audit_comment: event }, ...extra });
    expect((await step("approve_demo")).status).toBe(200);
    expect((await step("request_contract")).status).toBe(200);
    const warned = await step("approve_quote");
    expect(warned.status).toBe(422);
    expect(warned.body.errors.confirm_similar[0]).toContain("Hidráulica Sur (9301)");
    // Nothing was written: the quotation still awaits its approval, no client was made from the prospect.
    expect((await admin.get(`/api/v1/quotations/${q.id}`)).body.quotation.state).toBe("quote");
    expect(await t.app.db.db.select().from(clients).where(eq(clients.prospect_id, prospect.id))).toEqual([]);
    const approved = await step("approve_quote", { client_hash: { confirm_similar: true } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.quotation.state).toBe("finalizada");
    const [made] = await t.app.db.db.select().from(clients).where(eq(clients.prospect_id, prospect.id));
    expect(made.name).toBe("HIDRAULICA  SUR");
  });
});
