import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { INVOICE_ACTIONS, INVOICE_STATES, PROJECT_STATES, sqlList } from "../../../src/core/states";
import { timestamps } from "./_helpers";
import { clients, products } from "./commercial";
import { employee_positions, employees, users } from "./people";

export const project_types = pgTable("project_types", {
  id: serial("id").primaryKey(),
  name: varchar("name", { length: 120 }).notNull().unique(),
  color_tag: varchar("color_tag", { length: 20 }),
  ...timestamps,
});

export const projects = pgTable(
  "projects",
  {
    id: serial("id").primaryKey(),
    project_code: varchar("project_code", { length: 40 }).notNull().unique(),
    name: varchar("name", { length: 250 }).notNull(),
    project_date: date("project_date", { mode: "string" }),
    eta: date("eta", { mode: "string" }),
    audit_comment: text("audit_comment"),
    drive_root_id: varchar("drive_root_id", { length: 300 }),
    drive_root_url: text("drive_root_url"),
    client_id: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    project_type_catalog_id: integer("project_type_catalog_id").references(() => project_types.id, {
      onDelete: "restrict",
    }),
    product_catalog_id: integer("product_catalog_id").references(() => products.id, { onDelete: "restrict" }),
    rape_id: integer("rape_id").references(() => employees.id, { onDelete: "restrict" }),
    pm_id: integer("pm_id").references(() => employees.id, { onDelete: "restrict" }),
    state: varchar("state", { length: 30 }).notNull().default("requerimiento"),
    state_changed_at: timestamp("state_changed_at", { withTimezone: true }).notNull().defaultNow(),
    invoice_action: varchar("invoice_action", { length: 30 }),
    estimate_hours_needed: boolean("estimate_hours_needed").notNull().default(false),
    color_tag: varchar("color_tag", { length: 20 }),
    ...timestamps,
  },
  (t) => [
    index("projects_client_idx").on(t.client_id),
    uniqueIndex("projects_drive_root_unique").on(t.drive_root_id).where(sql`${t.drive_root_id} <> ''`),
    index("projects_state_idx").on(t.state),
    index("projects_code_idx").on(t.project_code, t.id),
    index("projects_name_idx").on(t.name, t.id),
    index("projects_type_idx").on(t.project_type_catalog_id),
    index("projects_product_idx").on(t.product_catalog_id),
    index("projects_rape_idx").on(t.rape_id),
    index("projects_pm_idx").on(t.pm_id),
    check("projects_state", sql.raw(`state in (${sqlList(Object.keys(PROJECT_STATES))})`)),
    check(
      "projects_invoice_action",
      sql.raw(`invoice_action is null or invoice_action in (${sqlList(Object.keys(INVOICE_ACTIONS))})`),
    ),
  ],
);
export type Project = typeof projects.$inferSelect;

/** State history of a project: every transition with its comment, date, responsible and ETA. */
export const project_stages = pgTable(
  "project_stages",
  {
    id: serial("id").primaryKey(),
    project_id: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    event: varchar("event", { length: 40 }).notNull(),
    from_state: varchar("from_state", { length: 30 }),
    to_state: varchar("to_state", { length: 30 }).notNull(),
    comment: text("comment"),
    stage_date: date("stage_date", { mode: "string" }),
    responsible_id: integer("responsible_id").references(() => employees.id, { onDelete: "set null" }),
    eta: date("eta", { mode: "string" }),
    user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("project_stages_project_idx").on(t.project_id, t.created_at)],
);

export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    folio: varchar("folio", { length: 60 }),
    date_of_invoice: date("date_of_invoice", { mode: "string" }),
    percentage_value: numeric("percentage_value", { precision: 5, scale: 2, mode: "number" }).notNull(),
    state: varchar("state", { length: 30 }).notNull().default("pendiente"),
    audit_comment: text("audit_comment"),
    project_id: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "restrict" }),
    ...timestamps,
  },
  (t) => [
    index("invoices_project_idx").on(t.project_id),
    /** SPEC-level folio: one per invoice across the firm's series, compared without case or outer spaces. */
    uniqueIndex("invoices_folio_unique").on(sql`upper(btrim(${t.folio}))`).where(sql`btrim(${t.folio}) <> ''`),
    check("invoices_percentage", sql`${t.percentage_value} > 0 and ${t.percentage_value} <= 100`),
    check("invoices_state", sql.raw(`state in (${sqlList(Object.keys(INVOICE_STATES))})`)),
  ],
);

export const estimated_work_hours = pgTable(
  "estimated_work_hours",
  {
    id: serial("id").primaryKey(),
    estimated_hours: numeric("estimated_hours", { precision: 8, scale: 2, mode: "number" }).notNull(),
    project_id: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    employee_position_id: integer("employee_position_id")
      .notNull()
      .references(() => employee_positions.id, { onDelete: "restrict" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("estimated_work_hours_unique").on(t.project_id, t.employee_position_id),
    check("estimated_work_hours_positive", sql`${t.estimated_hours} > 0`),
  ],
);

/** Field-level audit trail (state, ETA, folio, percentage…): who, when, old → new. */
export const audit_logs = pgTable(
  "audit_logs",
  {
    id: serial("id").primaryKey(),
    auditable_type: varchar("auditable_type", { length: 40 }).notNull(),
    auditable_id: integer("auditable_id").notNull(),
    field: varchar("field", { length: 60 }).notNull(),
    old_value: text("old_value"),
    new_value: text("new_value"),
    comment: text("comment"),
    user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_logs_record_idx").on(t.auditable_type, t.auditable_id, t.created_at)],
);

/**
 * The highest budget threshold (percent of the estimated hours) already told for a project, with the estimate
 * it was measured against: a threshold is told once; a raised estimate re-arms those no longer crossed.
 */
export const project_budget_alerts = pgTable(
  "project_budget_alerts",
  {
    project_id: integer("project_id")
      .primaryKey()
      .references(() => projects.id, { onDelete: "cascade" }),
    threshold: integer("threshold").notNull(),
    estimate_hours: numeric("estimate_hours", { precision: 10, scale: 2, mode: "number" }).notNull(),
    sent_on: date("sent_on", { mode: "string" }).notNull(),
  },
  (t) => [check("project_budget_alerts_threshold", sql`${t.threshold} in (50, 80, 100)`)],
);
