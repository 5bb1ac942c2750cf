import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holydays } from "../../server/db/schema";
import { multipart, rawRequest } from "../support/catalog-factories";
import type { ApiClient } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

const count = async () => (await t.app.db.db.select().from(holydays)).length;
const upload = (api: ApiClient, content: string | Buffer, filename = "festivos.csv", contentType = "text/csv") => {
  const body = multipart({ filename, contentType, content });
  return rawRequest(t.app, api.token, "PUT", "/api/v1/holydays/import_holydays", body.payload, body.headers);
};

describe("holydays", () => {
  it("creates, reads, updates and deletes a holiday; the date is unique", async () => {
    const created = await admin.post("/api/v1/holydays", { holyday: { date: "2030-05-01", name: "Día del Trabajo" } });
    expect(created.status).toBe(201);
    expect(created.body.holyday).toMatchObject({ date: "2030-05-01", name: "Día del Trabajo" });
    const id = created.body.holyday.id;
    const dup = await admin.post("/api/v1/holydays", { holyday: { date: "2030-05-01" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.date).toEqual(["ya está en uso"]);
    expect((await admin.put(`/api/v1/holydays/${id}`, { holyday: { name: "Trabajo" } })).body.holyday.name).toBe("Trabajo");
    expect((await admin.delete(`/api/v1/holydays/${id}`)).status).toBe(200);
    expect((await admin.get(`/api/v1/holydays/${id}`)).status).toBe(404);
  });

  it("answers 422 in Spanish for a missing or impossible date", async () => {
    const missing = await admin.post("/api/v1/holydays", { holyday: { name: "Sin fecha" } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.date).toEqual(["es obligatorio"]);
    const impossible = await admin.post("/api/v1/holydays", { holyday: { date: "2030-02-30" } });
    expect(impossible.body.errors.date).toEqual(["no es una fecha válida"]);
  });

  it("lists sorted by date, searches without accents and refuses unknown sort columns", async () => {
    await admin.post("/api/v1/holydays", { holyday: { date: "2031-12-25", name: "Navidad" } });
    await admin.post("/api/v1/holydays", { holyday: { date: "2031-01-06", name: "Día de Reyes" } });
    const asc = await admin.get("/api/v1/holydays?per_page=all&by_column[column]=date&by_column[order]=asc");
    const dates = asc.body.holydays.map((h: { date: string }) => h.date);
    expect(dates).toEqual([...dates].sort());
    const desc = await admin.get("/api/v1/holydays?by_column[column]=date&by_column[order]=desc");
    expect(desc.body.holydays[0].date >= desc.body.holydays[1].date).toBe(true);
    const search = await admin.get("/api/v1/holydays?search=DIA%20DE%20reyes");
    expect(search.body.holydays.map((h: { name: string }) => h.name)).toEqual(["Día de Reyes"]);
    expect((await admin.get("/api/v1/holydays?by_column[column]=updated_at")).status).toBe(422);
  });

  it("answers holydays_by_date within a range of at most one year", async () => {
    await admin.post("/api/v1/holydays", { holyday: { date: "2032-03-16", name: "Natalicio" } });
    await admin.post("/api/v1/holydays", { holyday: { date: "2032-11-16", name: "Revolución" } });
    const res = await operator.get("/api/v1/holydays/holydays_by_date?from=2032-03-01&to=2032-03-31");
    expect(res.status).toBe(200);
    expect(res.body.holydays.map((h: { date: string }) => h.date)).toEqual(["2032-03-16"]);
    const tooLong = await admin.get("/api/v1/holydays/holydays_by_date?from=2032-01-01&to=2033-06-01");
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.to).toEqual(["El rango de fechas no puede ser mayor a un año"]);
    const reversed = await admin.get("/api/v1/holydays/holydays_by_date?from=2032-05-01&to=2032-04-01");
    expect(reversed.body.errors.from).toEqual(["La fecha de inicio no puede ser posterior a la fecha de fin."]);
    const missing = await admin.get("/api/v1/holydays/holydays_by_date?from=2032-05-01");
    expect(missing.status).toBe(422);
    expect(missing.body.errors.to).toEqual(["es obligatorio"]);
  });

  it("downloads the CSV format with one example row", async () => {
    const res = await finance.get("/api/v1/holydays/download_holydays_format");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/csv/);
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="formato_dias_festivos.csv"/);
    const lines = res.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("fecha,nombre");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\d{4}-01-01,Año Nuevo$/);
  });

  it("imports a CSV with both date formats and skips dates already registered", async () => {
    await admin.post("/api/v1/holydays", { holyday: { date: "2040-01-01", name: "Ya estaba" } });
    const csv =
      '\uFEFFfecha,nombre\r\n2040-01-01,Año Nuevo\r\n05/02/2040,Constitución\r\n\r\n2040-03-19,"Natalicio, Juárez"\r\n05/02/2040,Repetido\r\n';
    const res = await upload(admin, csv);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 2, skipped: 2 });
    const listed = await admin.get("/api/v1/holydays/holydays_by_date?from=2040-01-01&to=2040-12-31");
    expect(listed.body.holydays.map((h: { date: string; name: string }) => [h.date, h.name])).toEqual([
      ["2040-01-01", "Ya estaba"],
      ["2040-02-05", "Constitución"],
      ["2040-03-19", "Natalicio, Juárez"],
    ]);
    const again = await upload(admin, csv, "festivos.CSV", "application/vnd.ms-excel");
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ imported: 0, skipped: 4, warning: "Todos los días festivos ya estaban registrados" });
  });

  it("imports nothing when any row has an invalid date, naming every bad row", async () => {
    const before = await count();
    const res = await upload(admin, "fecha,nombre\n2041-01-01,Bueno\n2041-02-30,Malo\n31/13/2041,Peor\n,Vacío\n");
    expect(res.status).toBe(422);
    expect(res.body.errors.invalid_dates).toEqual(["fila 3: 2041-02-30", "fila 4: 31/13/2041", "fila 5: (vacía)"]);
    expect(await count()).toBe(before);
    const listed = await admin.get("/api/v1/holydays/holydays_by_date?from=2041-01-01&to=2041-12-31");
    expect(listed.body.holydays).toEqual([]);
  });

  it("refuses names that are too long, per row, and imports nothing", async () => {
    const before = await count();
    const res = await upload(admin, `fecha,nombre\n2045-01-01,Bueno\n2045-01-02,${"x".repeat(161)}\n`);
    expect(res.status).toBe(422);
    expect(res.body.errors.invalid_names).toEqual(["fila 3: el nombre es demasiado largo (máximo 160 caracteres)"]);
    expect(await count()).toBe(before);
  });

  it("reads a semicolon-separated file saved by a Spanish spreadsheet", async () => {
    const res = await upload(
      admin,
      "Fecha;Nombre\r\n12/12/2046;Día de la Virgen\r\n",
      "festivos.csv",
      "application/vnd.ms-excel",
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 1, skipped: 0 });
    const listed = await admin.get("/api/v1/holydays/holydays_by_date?from=2046-12-01&to=2046-12-31");
    expect(listed.body.holydays.map((h: { date: string; name: string }) => [h.date, h.name])).toEqual([
      ["2046-12-12", "Día de la Virgen"],
    ]);
  });

  it("reads accents right in a Windows-1252 file (Excel on Spanish Windows saves CSV so)", async () => {
    const bytes = Buffer.from([
      ...Buffer.from("Fecha;Nombre\r\n13/12/2046;D"),
      0xed, // í in Windows-1252
      ...Buffer.from("a de la Revoluci"),
      0xf3, // ó
      ...Buffer.from("n\r\n"),
    ]);
    const res = await upload(admin, bytes, "festivos.csv", "application/vnd.ms-excel");
    expect(res.status).toBe(200);
    const listed = await admin.get("/api/v1/holydays/holydays_by_date?from=2046-12-13&to=2046-12-13");
    expect(listed.body.holydays.map((h: { name: string }) => h.name)).toEqual(["Día de la Revolución"]);
  });

  it("refuses a wrong header with a clear message and changes nothing", async () => {
    const before = await count();
    const res = await upload(admin, "date,name\n2042-01-01,Año Nuevo\n");
    expect(res.status).toBe(422);
    expect(res.body.errors.base[0]).toMatch(/columnas "fecha,nombre"/);
    const empty = await upload(admin, "fecha,nombre\n");
    expect(empty.status).toBe(422);
    expect(empty.body.errors.base).toEqual(["El archivo no contiene días festivos"]);
    expect(await count()).toBe(before);
  });

  it("refuses a missing file or a file that is not CSV", async () => {
    const invalid = { errors: { base: ["Archivo no valido o no seleccionado."] } };
    const notCsvName = await upload(admin, "fecha,nombre\n2043-01-01,x\n", "festivos.txt", "text/csv");
    expect(notCsvName.status).toBe(422);
    expect(notCsvName.body).toEqual(invalid);
    const notCsvType = await upload(admin, "fecha,nombre\n2043-01-01,x\n", "festivos.csv", "application/pdf");
    expect(notCsvType.body).toEqual(invalid);
    const noFile = multipart(undefined, { confirm: "1" });
    const none = await rawRequest(t.app, admin.token, "PUT", "/api/v1/holydays/import_holydays", noFile.payload, noFile.headers);
    expect(none.status).toBe(422);
    expect(none.body).toEqual(invalid);
    const json = await admin.put("/api/v1/holydays/import_holydays", { file: "x" });
    expect(json.status).toBe(422);
    expect(json.body).toEqual(invalid);
    const empty = await upload(admin, "");
    expect(empty.body).toEqual(invalid);
  });

  it("lets everyone read, only Administrador write or import", async () => {
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/holydays")).status).toBe(200);
      expect((await api.get("/api/v1/holydays/holydays_by_date?from=2030-01-01&to=2030-12-31")).status).toBe(200);
      expect((await api.post("/api/v1/holydays", { holyday: { date: "2044-01-01" } })).status).toBe(403);
      const res = await upload(api, "fecha,nombre\n2044-01-01,x\n");
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "Error de Permisos" });
    }
    const [any] = (await admin.get("/api/v1/holydays")).body.holydays;
    expect((await operator.put(`/api/v1/holydays/${any.id}`, { holyday: { name: "x" } })).status).toBe(403);
    expect((await finance.delete(`/api/v1/holydays/${any.id}`)).status).toBe(403);
  });
});
