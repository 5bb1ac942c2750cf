import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "../../server/http/errors";
import { sqlLiteral } from "../../server/modules/app_licenses/service";
import { buildClient, buildProduct } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

const db = () => t.app.db.db;
const license = (overrides: Record<string, unknown> = {}) => ({
  entity_name: "Entidad",
  entity_rfc: "AAA010101AA1",
  ...overrides,
});

/** The parts of a SQL script outside string literals ('' inside a literal is a quote). */
function outsideLiterals(script: string): { code: string; literals: string[] } {
  let code = "";
  const literals: string[] = [];
  let i = 0;
  while (i < script.length) {
    if (script[i] === "'") {
      let j = i + 1;
      let value = "";
      for (;;) {
        if (j >= script.length) throw new Error("unterminated literal");
        if (script[j] === "'" && script[j + 1] === "'") {
          value += "'";
          j += 2;
        } else if (script[j] === "'") break;
        else value += script[j++];
      }
      literals.push(value);
      code += "?";
      i = j + 1;
    } else code += script[i++];
  }
  return { code, literals };
}

describe("app_licenses", () => {
  it("creates a licence with the defaults of SPEC §9 and computed names", async () => {
    const client = await buildClient(db(), { name: "Cliente Licencias" });
    const product = await buildProduct(db(), { name: "Factura Plus" });
    const res = await admin.post("/api/v1/app_licenses", {
      app_license: license({
        client_id: client.id,
        product_catalog_id: product.id,
        entity_rfc: "aaa010101aa1",
        modules: ["Reception", "Emission", "Emission"],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.app_license).toMatchObject({
      environment: "prod",
      num_licenses: 1,
      license_type: "rent",
      entity_rfc: "AAA010101AA1",
      modules: ["Emission", "Reception"],
      is_active: true,
      has_mesa_electronica_license_key: false,
      client_name: "Cliente Licencias",
      product_name: "Factura Plus",
    });
    // An update without the defaulted fields keeps what was stored.
    const id = res.body.app_license.id;
    await admin.put(`/api/v1/app_licenses/${id}`, {
      app_license: { environment: "test", num_licenses: 5, license_type: "named_users" },
    });
    const updated = await admin.put(`/api/v1/app_licenses/${id}`, { app_license: { entity_name: "Otra" } });
    expect(updated.body.app_license).toMatchObject({
      entity_name: "Otra",
      environment: "test",
      num_licenses: 5,
      license_type: "named_users",
      modules: ["Emission", "Reception"],
    });
  });

  it("keeps the mesa electrónica key only for Siglo CD", async () => {
    const client = await buildClient(db());
    const siglo = await buildProduct(db(), { name: "Siglo CD" });
    const other = await buildProduct(db(), { name: "Otro producto" });
    const off = await admin.post("/api/v1/app_licenses", {
      app_license: license({ client_id: client.id, product_catalog_id: other.id, has_mesa_electronica_license_key: true }),
    });
    expect(off.body.app_license.has_mesa_electronica_license_key).toBe(false);
    const on = await admin.post("/api/v1/app_licenses", {
      app_license: license({ client_id: client.id, product_catalog_id: siglo.id, has_mesa_electronica_license_key: true }),
    });
    expect(on.body.app_license.has_mesa_electronica_license_key).toBe(true);
    const moved = await admin.put(`/api/v1/app_licenses/${on.body.app_license.id}`, {
      app_license: { product_catalog_id: other.id },
    });
    expect(moved.body.app_license.has_mesa_electronica_license_key).toBe(false);
  });

  it("answers 422 per field in Spanish", async () => {
    const res = await admin.post("/api/v1/app_licenses", {
      app_license: {
        entity_name: "",
        entity_rfc: "XYZ",
        license_type: "forever",
        environment: "dev",
        num_licenses: 0,
        modules: ["Payroll"],
        license_valid_until: "2030-13-01",
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      client_id: ["es obligatorio"],
      product_catalog_id: ["es obligatorio"],
      entity_name: ["es obligatorio"],
      entity_rfc: ["no es un RFC válido"],
      license_type: ["debe ser rent, concurrent_users o named_users"],
      environment: ["debe ser prod o test"],
      num_licenses: ["debe ser mayor a cero"],
      "modules.0": ["debe ser Emission, Reception o Conciliation"],
      license_valid_until: ["no es una fecha válida"],
    });
    const product = await buildProduct(db());
    const unknown = await admin.post("/api/v1/app_licenses", {
      app_license: license({ client_id: 999999, product_catalog_id: product.id }),
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.client_id).toEqual(["no existe"]);
    const client = await buildClient(db());
    const noProduct = await admin.post("/api/v1/app_licenses", {
      app_license: license({ client_id: client.id, product_catalog_id: 999999 }),
    });
    expect(noProduct.body.errors.product_catalog_id).toEqual(["no existe"]);
  });

  it("filters by client, product, type and status; searches entity name and RFC without accents", async () => {
    const c1 = await buildClient(db());
    const c2 = await buildClient(db());
    const p1 = await buildProduct(db());
    const p2 = await buildProduct(db());
    const mk = (o: Record<string, unknown>) => admin.post("/api/v1/app_licenses", { app_license: license(o) });
    await mk({ client_id: c1.id, product_catalog_id: p1.id, entity_name: "Comercializadora Peñón", license_type: "rent" });
    await mk({
      client_id: c1.id,
      product_catalog_id: p2.id,
      entity_name: "Distribuidora Ávila",
      license_type: "named_users",
      is_active: false,
    });
    await mk({
      client_id: c2.id,
      product_catalog_id: p1.id,
      entity_name: "Servicios Únicos",
      entity_rfc: "SUN010101AB9",
      license_type: "concurrent_users",
    });
    const names = (res: { body: { app_licenses: Array<{ entity_name: string }> } }) =>
      res.body.app_licenses.map((l) => l.entity_name).sort();
    const q = (s: string) => admin.get(`/api/v1/app_licenses?per_page=all&${s}`);
    const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
    expect(names(await q(`by_client=${enc([c1.id])}`))).toEqual(["Comercializadora Peñón", "Distribuidora Ávila"]);
    expect(names(await q(`by_product=${enc([p1.id])}`))).toEqual(["Comercializadora Peñón", "Servicios Únicos"]);
    expect(
      names(await q(`by_client=${enc([c1.id, c2.id])}&by_license_type=${enc(["named_users", "concurrent_users"])}`)),
    ).toEqual(["Distribuidora Ávila", "Servicios Únicos"]);
    expect(names(await q(`by_client=${enc([c1.id])}&by_status=${enc(["inactive"])}`))).toEqual(["Distribuidora Ávila"]);
    expect(names(await q(`by_client=${enc([c1.id])}&by_status=active`))).toEqual(["Comercializadora Peñón"]);
    expect(names(await q(`by_client=${enc([c1.id])}&by_status=${enc(["active", "inactive"])}`))).toHaveLength(2);
    expect(names(await q("search=penon"))).toEqual(["Comercializadora Peñón"]);
    expect(names(await q("search=sun010101"))).toEqual(["Servicios Únicos"]);
    const badStatus = await q("by_status=dormida");
    expect(badStatus.status).toBe(422);
    expect(badStatus.body.errors.by_status).toEqual(["no es válido"]);
    expect((await q("by_license_type=forever")).status).toBe(422);
    const sorted = await q(`by_client=${enc([c1.id, c2.id])}&by_column[column]=entity_name&by_column[order]=desc`);
    expect(sorted.body.app_licenses[0].entity_name).toBe("Servicios Únicos");
    // By default, by the licensee's name as a person alphabetises it (not by internal id).
    const byDefault = await q(`by_client=${enc([c1.id, c2.id])}`);
    expect(byDefault.body.app_licenses.map((l: { entity_name: string }) => l.entity_name)).toEqual([
      "Comercializadora Peñón",
      "Distribuidora Ávila",
      "Servicios Únicos",
    ]);
    const ascending = await q(`by_column[column]=entity_name&by_column[order]=asc&search=${encodeURIComponent("ávila")}`);
    expect(ascending.status).toBe(200);
    expect((await q("by_column[column]=client_name")).status).toBe(200);
    expect((await q("by_column[column]=modules")).status).toBe(422);
  });

  it("downloads an idempotent SQL script where a hostile name stays inside one literal", async () => {
    const hostile = "O'Brien'); DROP TABLE x; --";
    const client = await buildClient(db(), { name: hostile });
    const product = await buildProduct(db(), { name: "Siglo CD", product_code: "SCD\\'" });
    const created = await admin.post("/api/v1/app_licenses", {
      app_license: license({
        client_id: client.id,
        product_catalog_id: product.id,
        entity_name: `${hostile}\n-- */ \\' ;`,
        modules: ["Emission", "Conciliation"],
        has_mesa_electronica_license_key: true,
        license_valid_until: "2031-12-31",
      }),
    });
    const id = created.body.app_license.id;
    const res = await finance.get(`/api/v1/app_licenses/${id}/download_license_script`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/sql/);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="licencia_${id}.sql"`);
    const script = res.text;
    expect(script).toContain("BEGIN;");
    expect(script).toContain(`DELETE FROM sia_licencias WHERE licencia_id = '${id}';`);
    expect(script.trim().endsWith("COMMIT;")).toBe(true);
    const { code, literals } = outsideLiterals(script);
    expect(code).not.toMatch(/DROP|Brien/);
    expect(literals.filter((l) => l === hostile)).toHaveLength(1);
    expect(literals.filter((l) => l.includes("DROP TABLE x"))).toHaveLength(2);
    expect(script).toContain("'O''Brien''); DROP TABLE x; --'");

    // Run it, twice, on a real PostgreSQL: table x survives, one row holds the names verbatim.
    const pg = new PGlite();
    try {
      await pg.exec("CREATE TABLE x (id int); INSERT INTO x VALUES (1);");
      await pg.exec(script);
      await pg.exec(script);
      const rows = (await pg.query<Record<string, unknown>>("select * from sia_licencias")).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        licencia_id: id,
        cliente_nombre: hostile,
        entidad_nombre: `${hostile}\n-- */ \\' ;`,
        producto_codigo: "SCD\\'",
        entidad_rfc: "AAA010101AA1",
        ambiente: "prod",
        num_licencias: 1,
        tipo_licencia: "rent",
        modulo_emision: 1,
        modulo_recepcion: 0,
        modulo_conciliacion: 1,
        llave_mesa_electronica: 1,
        activa: 1,
      });
      expect((await pg.query("select count(*)::int as n from x")).rows).toEqual([{ n: 1 }]);
    } finally {
      await pg.close();
    }
  });

  it("quotes every value as a plain SQL literal, refuses NUL, and answers 404 for unknown licences", async () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    // A backslash is never written inside a literal (MySQL would read it as an escape).
    expect(sqlLiteral("a\\'b")).toBe("REPLACE('a!''b', '!', SUBSTR('\\\\', 1, 1))");
    expect(sqlLiteral("!\\")).toBe(`REPLACE('!"', '"', SUBSTR('\\\\', 1, 1))`);
    expect(sqlLiteral(12)).toBe("'12'");
    expect(sqlLiteral(null)).toBe("NULL");
    expect(() => sqlLiteral("a\u0000b")).toThrow(ValidationError);
    expect((await admin.get("/api/v1/app_licenses/987654/download_license_script")).status).toBe(404);
    expect((await admin.get("/api/v1/app_licenses/abc/download_license_script")).status).toBe(404);
  });

  it("lets Finanzas read and download, Operador nothing, only Administrador write", async () => {
    const client = await buildClient(db());
    const product = await buildProduct(db());
    const { body } = await admin.post("/api/v1/app_licenses", {
      app_license: license({ client_id: client.id, product_catalog_id: product.id }),
    });
    const id = body.app_license.id;
    expect((await finance.get("/api/v1/app_licenses")).status).toBe(200);
    expect((await finance.get(`/api/v1/app_licenses/${id}`)).status).toBe(200);
    expect(
      (
        await finance.post("/api/v1/app_licenses", {
          app_license: license({ client_id: client.id, product_catalog_id: product.id }),
        })
      ).status,
    ).toBe(403);
    expect((await finance.put(`/api/v1/app_licenses/${id}`, { app_license: { entity_name: "x" } })).status).toBe(403);
    expect((await finance.delete(`/api/v1/app_licenses/${id}`)).status).toBe(403);
    for (const url of [
      "/api/v1/app_licenses",
      `/api/v1/app_licenses/${id}`,
      `/api/v1/app_licenses/${id}/download_license_script`,
    ]) {
      expect((await operator.get(url)).status).toBe(403);
    }
    expect((await admin.delete(`/api/v1/app_licenses/${id}`)).status).toBe(200);
  });
});
