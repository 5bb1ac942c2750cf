import { eq, sql } from "drizzle-orm";
import { LICENSE_TYPES } from "../../../src/core/constants";
import { messages } from "../../../src/core/messages";
import { appLicenseSchema, appLicenseUpdateSchema } from "../../../src/core/schemas/app_license";
import { z } from "../../../src/core/schemas/fields";
import { app_licenses, clients, products } from "../../db/schema";
import { requires } from "../../http/auth";
import { searchOf, sortableOf } from "../../http/columns";
import { doc, fileAnswer } from "../../http/openapi";
import { answered } from "../../http/records";
import { declareResource, filter, idOf, jsonArray } from "../../http/resource";
import { alphabetical, outer } from "../../http/sql";
import { applyLicenseRules, licenseScript } from "./service";

const clientName = sql<
  string | null
>`(select ${clients.name} from ${clients} where ${clients.id} = ${outer(app_licenses.client_id)})`;
const productName = sql<
  string | null
>`(select ${products.name} from ${products} where ${products.id} = ${outer(app_licenses.product_catalog_id)})`;

const STATUSES = ["active", "inactive"] as const;
/** by_status: a JSON array (["active"]), a comma list or one value. */
const statusList = jsonArray(z.enum(STATUSES, { error: messages.invalidValue }));

export const appLicensesResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    client_name: answered.text,
    product_name: answered.text,
  },
  name: "app_licenses",
  singular: "app_license",
  table: app_licenses,
  createSchema: appLicenseSchema,
  updateSchema: appLicenseUpdateSchema,
  search: searchOf("app_licenses", { entity_name: app_licenses.entity_name, entity_rfc: app_licenses.entity_rfc }),
  sortable: sortableOf("app_licenses", {
    id: app_licenses.id,
    entity_name: alphabetical(app_licenses.entity_name),
    entity_rfc: app_licenses.entity_rfc,
    client_name: clientName,
    product_name: productName,
    environment: app_licenses.environment,
    num_licenses: app_licenses.num_licenses,
    license_type: app_licenses.license_type,
    license_valid_until: app_licenses.license_valid_until,
    is_active: app_licenses.is_active,
    created_at: app_licenses.created_at,
  }),
  // By the name a person reads first (the licensee), not by the internal id.
  defaultSort: { column: "entity_name", order: "asc" },
  filters: {
    by_client: filter.idIn(app_licenses.client_id),
    by_product: filter.idIn(app_licenses.product_catalog_id),
    by_license_type: filter.valueIn(app_licenses.license_type, LICENSE_TYPES),
    by_status: filter.custom(statusList, (statuses) => {
      const wanted = new Set(statuses);
      if (wanted.size !== 1) return undefined;
      return eq(app_licenses.is_active, wanted.has("active"));
    }),
  },
  computed: {
    client_name: clientName.as("client_name"),
    product_name: productName.as("product_name"),
  },
  beforeWrite: applyLicenseRules,
  routes(app) {
    app.get(
      "/app_licenses/:id/download_license_script",
      {
        config: requires("app_licenses", "show"),
        schema: doc({
          tags: ["app_licenses"],
          summary: "Script SQL que instala la licencia (docs/license-script.md)",
          response: { 200: fileAnswer("application/sql", "El script SQL") },
        }),
      },
      async (request, reply) => {
        const { filename, sql: script } = await licenseScript(app.db.db, idOf(request));
        return reply
          .header("content-type", "application/sql; charset=utf-8")
          .header("content-disposition", `attachment; filename="${filename}"`)
          .send(script);
      },
    );
  },
});
