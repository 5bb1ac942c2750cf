import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { app_licenses, assignments, client_product_catalogs, projects, quotations } from "../../server/db/schema";
import { buildActivity, buildEmployee } from "../support/catalog-factories";
import { buildClient, buildProduct } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());
const db = () => t.app.db.db;

describe("products", () => {
  it("creates a product with its responsible employee and reads employee_name", async () => {
    const employee = await buildEmployee(db(), { name: "Rocío Peña" });
    const res = await admin.post("/api/v1/products", {
      product: {
        product_code: "SCD-01",
        name: "Siglo CD",
        application_id: "app-7",
        employee_id: String(employee.id),
        brochure_url: "https://drive.google.com/file/d/abc",
        brochure_id: "abc",
        form_url: "",
        product_category: "Facturación",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.product).toMatchObject({
      product_code: "SCD-01",
      name: "Siglo CD",
      employee_id: employee.id,
      employee_name: "Rocío Peña",
      form_url: null,
      is_selectable: true,
    });
    const updated = await admin.put(`/api/v1/products/${res.body.product.id}`, { product: { is_selectable: false } });
    expect(updated.body.product).toMatchObject({ is_selectable: false, name: "Siglo CD", product_category: "Facturación" });
  });

  it("answers 422 per field in Spanish: required, unique code, URLs, unknown employee", async () => {
    const res = await admin.post("/api/v1/products", {
      product: { product_code: "", name: "", brochure_url: "javascript:alert(1)", form_url: "no es url" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      product_code: ["es obligatorio"],
      name: ["es obligatorio"],
      employee_id: ["es obligatorio"],
      brochure_url: ["no es una URL válida (debe empezar con http:// o https://)"],
      form_url: ["no es una URL válida (debe empezar con http:// o https://)"],
    });
    const employee = await buildEmployee(db());
    const existing = await buildProduct(db(), { product_code: "DUP-1" });
    const dup = await admin.post("/api/v1/products", {
      product: { product_code: existing.product_code, name: "Otro", employee_id: employee.id },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.product_code).toEqual(["ya está en uso"]);
    const noEmployee = await admin.post("/api/v1/products", {
      product: { product_code: "NEW-1", name: "Otro", employee_id: 999999 },
    });
    expect(noEmployee.status).toBe(422);
    expect(noEmployee.body.errors.employee_id).toEqual(["no existe"]);
  });

  it("filters selectable and by category, searches without accents, sorts by whitelist", async () => {
    const employee = await buildEmployee(db(), { name: "Zacarías Zúñiga" });
    await buildProduct(db(), { name: "Nómina Ágil", product_category: "RH", employee_id: employee.id });
    await buildProduct(db(), { name: "Framework", product_category: "Interno", is_selectable: false });
    await buildProduct(db(), { name: "Bancos", product_category: "Tesorería" });
    const names = (res: { body: { products: Array<{ name: string }> } }) => res.body.products.map((p) => p.name).sort();
    const notSelectable = await admin.get("/api/v1/products?per_page=all&selectable=false");
    expect(names(notSelectable)).toContain("Framework");
    expect(names(notSelectable)).not.toContain("Bancos");
    const selectable = await admin.get("/api/v1/products?per_page=all&selectable=true");
    expect(names(selectable)).not.toContain("Framework");
    const byCategory = await admin.get(
      `/api/v1/products?per_page=all&by_category=${encodeURIComponent(JSON.stringify(["RH", "Tesorería"]))}`,
    );
    expect(names(byCategory)).toEqual(["Bancos", "Nómina Ágil"]);
    expect(names(await admin.get("/api/v1/products?search=NOMINA%20agil"))).toEqual(["Nómina Ágil"]);
    const byEmployee = await admin.get("/api/v1/products?by_column[column]=employee_name&by_column[order]=asc&per_page=all");
    const responsibles = byEmployee.body.products.map((p: { employee_name: string | null }) => p.employee_name).filter(Boolean);
    expect(responsibles).toEqual(["Rocío Peña", "Zacarías Zúñiga"]);
    expect((await admin.get("/api/v1/products?selectable=quizas")).status).toBe(422);
    expect((await admin.get("/api/v1/products?by_column[column]=brochure_url")).status).toBe(422);
  });

  it("lists one client's catalogue with by_client (the support form's products)", async () => {
    const client = await buildClient(db());
    const other = await buildClient(db());
    const mine = await buildProduct(db(), { name: "Catálogo del cliente" });
    const theirs = await buildProduct(db(), { name: "Catálogo de otro" });
    await db()
      .insert(client_product_catalogs)
      .values([
        { client_id: client.id, product_catalog_id: mine.id },
        { client_id: other.id, product_catalog_id: theirs.id },
      ]);
    const res = await operator.get(`/api/v1/products?per_page=all&selectable=true&by_client=${client.id}`);
    expect(res.status).toBe(200);
    expect(res.body.products.map((p: { id: number }) => p.id)).toEqual([mine.id]);
    expect((await operator.get("/api/v1/products?by_client=uno")).status).toBe(422);
  });

  it("refuses to delete a product used by clients, projects, quotations, licences or activities", async () => {
    const client = await buildClient(db());
    const employee = await buildEmployee(db());
    const cases: Array<[string, (id: number) => Promise<unknown>]> = [
      ["clientes", (id) => db().insert(client_product_catalogs).values({ client_id: client.id, product_catalog_id: id })],
      [
        "proyectos",
        (id) =>
          db()
            .insert(projects)
            .values({ project_code: `PP-${id}`, name: "P", client_id: client.id, product_catalog_id: id }),
      ],
      ["cotizaciones", (id) => db().insert(quotations).values({ contact_name: "C", product_catalog_id: id })],
      [
        "licencias",
        (id) =>
          db()
            .insert(app_licenses)
            .values({ client_id: client.id, product_catalog_id: id, entity_name: "E", entity_rfc: "AAA010101AA1" }),
      ],
      ["actividades", (id) => buildActivity(db(), employee.id, { product_catalog_id: id })],
      [
        "asignaciones",
        (id) =>
          db().insert(assignments).values({
            employee_id: employee.id,
            client_id: client.id,
            product_catalog_id: id,
            start_on: "2025-01-01",
            end_on: "2025-01-31",
          }),
      ],
    ];
    for (const [label, use] of cases) {
      const product = await buildProduct(db());
      await use(product.id);
      const res = await admin.delete(`/api/v1/products/${product.id}`);
      expect(res.status).toBe(422);
      expect(res.body.errors.base).toEqual([`No se puede eliminar: el producto se usa en 1 ${label}`]);
    }
    const free = await buildProduct(db());
    expect((await admin.delete(`/api/v1/products/${free.id}`)).status).toBe(200);
  });

  it("lets Operador and Finanzas read but not write", async () => {
    const product = await buildProduct(db());
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/products?selectable=true")).status).toBe(200);
      expect((await api.get(`/api/v1/products/${product.id}`)).status).toBe(200);
      expect((await api.post("/api/v1/products", { product: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/products/${product.id}`, { product: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/products/${product.id}`)).status).toBe(403);
    }
  });
});

describe("products of a client", () => {
  it("by_client lists only the products linked to that client (paged or all), for every role", async () => {
    const client = await buildClient(db(), { name: "Cliente con productos" });
    const otherClient = await buildClient(db(), { name: "Otro cliente" });
    const [a, b, c] = [
      await buildProduct(db(), { name: "Producto A del cliente" }),
      await buildProduct(db(), { name: "Producto B del cliente" }),
      await buildProduct(db(), { name: "Producto C de otro" }),
    ];
    await db()
      .insert(client_product_catalogs)
      .values([
        { client_id: client.id, product_catalog_id: a.id },
        { client_id: client.id, product_catalog_id: b.id },
        { client_id: otherClient.id, product_catalog_id: c.id },
      ]);
    for (const api of [admin, operator, finance]) {
      for (const perPage of ["10", "all"]) {
        const res = await api.get(`/api/v1/products?by_client=${client.id}&per_page=${perPage}`);
        expect(res.status).toBe(200);
        expect(res.body.products.map((p: { id: number }) => p.id).sort()).toEqual([a.id, b.id].sort());
        expect(res.body.meta.total_count).toBe(2);
      }
    }
    const none = await operator.get("/api/v1/products?by_client=99999999");
    expect(none.body.products).toEqual([]);
    const bad = await operator.get("/api/v1/products?by_client=abc");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.by_client).toEqual(["no existe"]);
  });
});
