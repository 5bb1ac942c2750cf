import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { timestamps } from "./_helpers";
import { employees, users } from "./people";

export const client_groups = pgTable(
  "client_groups",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 160 }).notNull().unique(),
    ...timestamps,
  },
  // «Agroindustria» and « agroindustria » are one group: unique by name without case, accents or extra
  // spaces (sia_normal_name, created in the migration's hand-written block).
  (t) => [uniqueIndex("client_groups_name_normal_unique").on(sql`sia_normal_name(${t.name})`)],
);

/** The product catalog ("products" in the API, "productCatalogs" in the screens). */
export const products = pgTable("products", {
  id: serial("id").primaryKey(),
  product_code: varchar("product_code", { length: 40 }).notNull().unique(),
  name: varchar("name", { length: 160 }).notNull(),
  application_id: varchar("application_id", { length: 80 }),
  employee_id: integer("employee_id").references(() => employees.id, { onDelete: "restrict" }),
  brochure_url: text("brochure_url"),
  brochure_id: varchar("brochure_id", { length: 200 }),
  form_url: text("form_url"),
  form_id: varchar("form_id", { length: 200 }),
  product_category: varchar("product_category", { length: 80 }),
  /** SPEC §5: SIA, Framework and SICAJAS cannot be chosen for activities. */
  is_selectable: boolean("is_selectable").notNull().default(true),
  ...timestamps,
});

export const clients = pgTable(
  "clients",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 200 }).notNull(),
    client_code: varchar("client_code", { length: 40 }).notNull(),
    rfc: varchar("rfc", { length: 13 }),
    complete_name: varchar("complete_name", { length: 300 }),
    email: varchar("email", { length: 254 }),
    is_production_ready: boolean("is_production_ready").notNull().default(false),
    was_prospect: boolean("was_prospect").notNull().default(false),
    converted_to_prospect_by: integer("converted_to_prospect_by").references(() => users.id, {
      onDelete: "set null",
    }),
    client_group_id: integer("client_group_id").references(() => client_groups.id, { onDelete: "restrict" }),
    drive_root_id: varchar("drive_root_id", { length: 300 }),
    drive_root_url: text("drive_root_url"),
    /** The prospect this client was won from (approve_quote): one client per won prospect. */
    prospect_id: integer("prospect_id").references((): AnyPgColumn => prospects.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("clients_code_unique").on(t.client_code).where(sql`${t.client_code} <> '0'`),
    uniqueIndex("clients_prospect_unique").on(t.prospect_id),
    uniqueIndex("clients_drive_root_unique").on(t.drive_root_id).where(sql`${t.drive_root_id} <> ''`),
    index("clients_group_idx").on(t.client_group_id),
    index("clients_name_idx").on(t.name),
  ],
);
export type Client = typeof clients.$inferSelect;

export const client_product_catalogs = pgTable(
  "client_product_catalogs",
  {
    id: serial("id").primaryKey(),
    client_id: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    product_catalog_id: integer("product_catalog_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    annual_support_hours: numeric("annual_support_hours", { precision: 8, scale: 2, mode: "number" }).notNull().default(0),
  },
  (t) => [
    uniqueIndex("client_product_catalogs_unique").on(t.client_id, t.product_catalog_id),
    index("client_product_catalogs_product_idx").on(t.product_catalog_id),
    check("client_product_catalogs_hours", sql`${t.annual_support_hours} >= 0`),
  ],
);

export const prospects = pgTable(
  "prospects",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 200 }).notNull(),
    drive_root_id: varchar("drive_root_id", { length: 300 }),
    drive_root_url: text("drive_root_url"),
    ...timestamps,
  },
  (t) => [uniqueIndex("prospects_drive_root_unique").on(t.drive_root_id).where(sql`${t.drive_root_id} <> ''`)],
);

export const quotations = pgTable(
  "quotations",
  {
    id: serial("id").primaryKey(),
    contact_name: varchar("contact_name", { length: 200 }).notNull(),
    prospect_id: integer("prospect_id").references(() => prospects.id, { onDelete: "set null" }),
    product_catalog_id: integer("product_catalog_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    event_url: text("event_url"),
    event_id: varchar("event_id", { length: 300 }),
    event: jsonb("event"),
    audit_comment: text("audit_comment"),
    state: varchar("state", { length: 30 }).notNull().default("demo"),
    /** What approve_quote made: the client and project, kept for the record. */
    client_id: integer("client_id").references(() => clients.id, { onDelete: "set null" }),
    project_id: integer("project_id"),
    ...timestamps,
  },
  (t) => [
    index("quotations_state_idx").on(t.state),
    index("quotations_created_idx").on(t.created_at, t.id),
    index("quotations_product_idx").on(t.product_catalog_id),
    index("quotations_prospect_idx").on(t.prospect_id),
  ],
);

export const app_licenses = pgTable(
  "app_licenses",
  {
    id: serial("id").primaryKey(),
    client_id: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    entity_name: varchar("entity_name", { length: 300 }).notNull(),
    entity_rfc: varchar("entity_rfc", { length: 13 }).notNull(),
    environment: varchar("environment", { length: 10 }).notNull().default("prod"),
    num_licenses: integer("num_licenses").notNull().default(1),
    license_valid_until: date("license_valid_until", { mode: "string" }),
    license_type: varchar("license_type", { length: 30 }).notNull().default("rent"),
    has_mesa_electronica_license_key: boolean("has_mesa_electronica_license_key").notNull().default(false),
    product_catalog_id: integer("product_catalog_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    modules: text("modules").array().notNull().default(sql`'{}'::text[]`),
    is_active: boolean("is_active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index("app_licenses_client_idx").on(t.client_id),
    index("app_licenses_product_idx").on(t.product_catalog_id),
    check("app_licenses_environment", sql`${t.environment} in ('prod','test')`),
    check("app_licenses_type", sql`${t.license_type} in ('rent','concurrent_users','named_users')`),
    check("app_licenses_num", sql`${t.num_licenses} >= 1`),
    check("app_licenses_modules", sql`${t.modules} <@ array['Emission','Reception','Conciliation']::text[]`),
  ],
);
