import { sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { appSettingUpdateSchema } from "../../../src/core/schemas/app_setting";
import { app_settings, clients, workspaces } from "../../db/schema";
import { sortableOf } from "../../http/columns";
import { answered } from "../../http/records";
import { declareResource } from "../../http/resource";

/** The single settings row. */
export const APP_SETTINGS_ID = 1;

const clientName = (column: PgColumn) =>
  sql<
    string | null
  >`(select ${clients.name} from ${clients} where ${clients.id} = ${sql.raw(`"app_settings"."${column.name}"`)})`;

export const appSettingsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    default_customer_name: answered.text,
    support_excluded_customer_name: answered.text,
    default_workspace_name: answered.text,
  },
  name: "app_settings",
  singular: "app_setting",
  table: app_settings,
  updateSchema: appSettingUpdateSchema,
  without: ["create", "delete"],
  sortable: sortableOf("app_settings", { id: app_settings.id }),
  defaultSort: { column: "id", order: "asc" },
  computed: {
    default_customer_name: clientName(app_settings.default_customer_id).as("default_customer_name"),
    support_excluded_customer_name: clientName(app_settings.support_excluded_customer_id).as("support_excluded_customer_name"),
    default_workspace_name: sql<
      string | null
    >`(select ${workspaces.name} from ${workspaces} where ${workspaces.id} = ${sql.raw('"app_settings"."default_workspace_id"')})`.as(
      "default_workspace_name",
    ),
  },
  /** Only row 1 exists; it is created with nulls the first time it is asked for. */
  async ensure(id, db) {
    if (id === APP_SETTINGS_ID) await db.insert(app_settings).values({ id: APP_SETTINGS_ID }).onConflictDoNothing();
  },
});
