import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPosition, buildProject } from "../support/catalog-factories";
import { buildClient, signInAs } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());
const db = () => t.app.db.db;

async function project() {
  return buildProject(db(), (await buildClient(db())).id);
}

describe("estimated_work_hours", () => {
  it("creates estimated hours with the position's name", async () => {
    const p = await project();
    const position = await buildPosition(db(), "Desarrollador Sénior");
    const res = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { project_id: p.id, employee_position_id: String(position.id), estimated_hours: "12.5" },
    });
    expect(res.status).toBe(201);
    expect(res.body.estimated_work_hour).toMatchObject({
      project_id: p.id,
      employee_position_id: position.id,
      estimated_hours: 12.5,
      employee_position_name: "Desarrollador Sénior",
    });
    const updated = await admin.put(`/api/v1/estimated_work_hours/${res.body.estimated_work_hour.id}`, {
      estimated_work_hour: { estimated_hours: 20 },
    });
    expect(updated.body.estimated_work_hour.estimated_hours).toBe(20);
  });

  it("asks to fill every field when hours or position are missing, and hours must be above zero", async () => {
    const p = await project();
    const missing = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { project_id: p.id, estimated_hours: "", employee_position_id: "" },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.estimated_hours).toEqual(["Rellene todos los campos"]);
    expect(missing.body.errors.employee_position_id).toEqual(["Rellene todos los campos"]);
    const position = await buildPosition(db());
    const onlyHours = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { project_id: p.id, estimated_hours: 3 },
    });
    expect(onlyHours.body.errors).toEqual({ employee_position_id: ["Rellene todos los campos"] });
    const zero = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { project_id: p.id, employee_position_id: position.id, estimated_hours: 0 },
    });
    expect(zero.body.errors.estimated_hours).toEqual(["debe ser mayor a cero"]);
    const text = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { project_id: p.id, employee_position_id: position.id, estimated_hours: "muchas" },
    });
    expect(text.body.errors.estimated_hours).toEqual(["debe ser un número"]);
    const noProject = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { employee_position_id: position.id, estimated_hours: 1 },
    });
    expect(noProject.body.errors.project_id).toEqual(["es obligatorio"]);
    const unknown = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { project_id: p.id, employee_position_id: 999999, estimated_hours: 1 },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.employee_position_id).toEqual(["no existe"]);
  });

  it("refuses a second row for the same project and position", async () => {
    const p = await project();
    const position = await buildPosition(db());
    const other = await buildPosition(db());
    const body = { project_id: p.id, employee_position_id: position.id, estimated_hours: 5 };
    expect((await admin.post("/api/v1/estimated_work_hours", { estimated_work_hour: body })).status).toBe(201);
    const dup = await admin.post("/api/v1/estimated_work_hours", { estimated_work_hour: body });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.employee_position_id).toEqual(["ya tiene horas estimadas en este proyecto"]);
    const second = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { ...body, employee_position_id: other.id },
    });
    const moved = await admin.put(`/api/v1/estimated_work_hours/${second.body.estimated_work_hour.id}`, {
      estimated_work_hour: { employee_position_id: position.id },
    });
    expect(moved.status).toBe(422);
    const same = await admin.put(`/api/v1/estimated_work_hours/${second.body.estimated_work_hour.id}`, {
      estimated_work_hour: { estimated_hours: 7 },
    });
    expect(same.status).toBe(200);
  });

  it("filters by project and sorts by whitelist", async () => {
    const p1 = await project();
    const p2 = await project();
    const a = await buildPosition(db(), "Analista");
    const b = await buildPosition(db(), "Arquitecto");
    for (const [pid, pos, h] of [
      [p1.id, a.id, 4],
      [p1.id, b.id, 8],
      [p2.id, a.id, 1],
    ] as const) {
      await admin.post("/api/v1/estimated_work_hours", {
        estimated_work_hour: { project_id: pid, employee_position_id: pos, estimated_hours: h },
      });
    }
    const res = await finance.get(
      `/api/v1/estimated_work_hours?project_id=${p1.id}&by_column[column]=estimated_hours&by_column[order]=desc`,
    );
    expect(res.status).toBe(200);
    expect(
      res.body.estimated_work_hours.map((r: { employee_position_name: string; estimated_hours: number }) => [
        r.employee_position_name,
        r.estimated_hours,
      ]),
    ).toEqual([
      ["Arquitecto", 8],
      ["Analista", 4],
    ]);
    expect(res.body.meta.total_count).toBe(2);
    const byName = await admin.get(`/api/v1/estimated_work_hours?project_id=${p1.id}&by_column[column]=employee_position_name`);
    expect(byName.body.estimated_work_hours[0].employee_position_name).toBe("Analista");
    expect((await admin.get("/api/v1/estimated_work_hours?project_id=abc")).status).toBe(422);
    expect((await admin.get("/api/v1/estimated_work_hours?by_column[column]=project_id")).status).toBe(422);
  });

  it("lets Finanzas read, an Operador only what they lead, only Administrador write", async () => {
    const p = await project();
    const position = await buildPosition(db());
    const created = await admin.post("/api/v1/estimated_work_hours", {
      estimated_work_hour: { project_id: p.id, employee_position_id: position.id, estimated_hours: 2 },
    });
    const id = created.body.estimated_work_hour.id;
    expect((await finance.get(`/api/v1/estimated_work_hours/${id}`)).status).toBe(200);
    expect((await finance.post("/api/v1/estimated_work_hours", { estimated_work_hour: {} })).status).toBe(403);
    expect(
      (await finance.put(`/api/v1/estimated_work_hours/${id}`, { estimated_work_hour: { estimated_hours: 1 } })).status,
    ).toBe(403);
    expect((await finance.delete(`/api/v1/estimated_work_hours/${id}`)).status).toBe(403);
    // A project the Operador does not lead: its rows do not exist for them (no 403 to tell them apart).
    const notLed = await operator.get(`/api/v1/estimated_work_hours?project_id=${p.id}`);
    expect(notLed.status).toBe(200);
    expect(notLed.body.estimated_work_hours).toEqual([]);
    expect((await operator.get(`/api/v1/estimated_work_hours/${id}`)).status).toBe(404);
    expect((await admin.delete(`/api/v1/estimated_work_hours/${id}`)).status).toBe(200);
  });

  it("a project leader (PM or responsible) reads their project's estimated hours and changes nothing", async () => {
    const leader = await signInAs(t.app, "operator");
    const leaderEmployee = leader.employee!.id;
    const asPm = await buildProject(db(), (await buildClient(db())).id, { pm_id: leaderEmployee });
    const asResponsible = await buildProject(db(), (await buildClient(db())).id, { rape_id: leaderEmployee });
    const other = await project();
    const position = await buildPosition(db());
    const rowOf = async (projectId: number) =>
      (
        await admin.post("/api/v1/estimated_work_hours", {
          estimated_work_hour: { project_id: projectId, employee_position_id: position.id, estimated_hours: 8 },
        })
      ).body.estimated_work_hour.id as number;
    const [pmRow, responsibleRow, otherRow] = [await rowOf(asPm.id), await rowOf(asResponsible.id), await rowOf(other.id)];

    for (const [projectId, rowId] of [
      [asPm.id, pmRow],
      [asResponsible.id, responsibleRow],
    ]) {
      const list = await leader.api.get(`/api/v1/estimated_work_hours?project_id=${projectId}`);
      expect(list.status).toBe(200);
      expect(list.body.estimated_work_hours.map((r: { id: number }) => r.id)).toEqual([rowId]);
      expect((await leader.api.get(`/api/v1/estimated_work_hours/${rowId}`)).status).toBe(200);
    }
    // Without a project filter: only the projects they lead.
    const all = await leader.api.get("/api/v1/estimated_work_hours?per_page=all");
    expect(all.body.estimated_work_hours.map((r: { id: number }) => r.id).sort()).toEqual([pmRow, responsibleRow].sort());
    expect((await leader.api.get(`/api/v1/estimated_work_hours/${otherRow}`)).status).toBe(404);
    // Reading is all a leader gets: writing stays with administrators.
    expect(
      (
        await leader.api.post("/api/v1/estimated_work_hours", {
          estimated_work_hour: { project_id: asPm.id, employee_position_id: (await buildPosition(db())).id, estimated_hours: 1 },
        })
      ).status,
    ).toBe(403);
    expect(
      (await leader.api.put(`/api/v1/estimated_work_hours/${pmRow}`, { estimated_work_hour: { estimated_hours: 1 } })).status,
    ).toBe(403);
    expect((await leader.api.delete(`/api/v1/estimated_work_hours/${pmRow}`)).status).toBe(403);
    // The rest of a led project stays with its rows of the matrix: no invoices, no state changes.
    expect((await leader.api.get(`/api/v1/invoices?project_id=${asPm.id}`)).status).toBe(403);
    expect((await leader.api.post(`/api/v1/projects/${asPm.id}/aasm_transition`, {})).status).toBe(403);
    expect((await leader.api.get(`/api/v1/projects/${asPm.id}/project_stages`)).status).toBe(200);
    expect((await leader.api.get(`/api/v1/projects/${asPm.id}/messages`)).status).toBe(200);
  });
});
