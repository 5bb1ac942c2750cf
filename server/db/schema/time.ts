import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { ACTION_TYPES } from "../../../src/core/constants";
import { NOTIFICATION_KIND_VALUES } from "../../../src/core/schemas/board";
import { sqlList } from "../../../src/core/states";
import { timestamps } from "./_helpers";
import { clients, products } from "./commercial";
import { employees, users, workspaces } from "./people";
import { projects } from "./projects";

export const activity_type_catalogs = pgTable("activity_type_catalogs", {
  id: serial("id").primaryKey(),
  code: varchar("code", { length: 4 }).notNull().unique(),
  name: varchar("name", { length: 120 }).notNull(),
  ...timestamps,
});

export const holydays = pgTable("holydays", {
  id: serial("id").primaryKey(),
  date: date("date", { mode: "string" }).notNull().unique(),
  name: varchar("name", { length: 160 }),
  ...timestamps,
});

export const assignments = pgTable(
  "assignments",
  {
    id: serial("id").primaryKey(),
    employee_id: integer("employee_id")
      .notNull()
      .references(() => employees.id, { onDelete: "restrict" }),
    client_id: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    product_catalog_id: integer("product_catalog_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    start_on: date("start_on", { mode: "string" }).notNull(),
    end_on: date("end_on", { mode: "string" }).notNull(),
    ...timestamps,
  },
  (t) => [
    index("assignments_employee_idx").on(t.employee_id, t.start_on),
    index("assignments_start_on_idx").on(t.start_on, t.id),
    index("assignments_client_idx").on(t.client_id),
    check("assignments_dates", sql`${t.end_on} >= ${t.start_on}`),
  ],
);

/** A single row (id 1): the firm's settings. */
export const app_settings = pgTable(
  "app_settings",
  {
    id: integer("id").primaryKey().default(1),
    default_customer_id: integer("default_customer_id").references(() => clients.id, { onDelete: "restrict" }),
    default_workspace_id: integer("default_workspace_id").references(() => workspaces.id, {
      onDelete: "restrict",
    }),
    /** The customer support activities may not use (SPEC §5: "id 29"). */
    support_excluded_customer_id: integer("support_excluded_customer_id").references(() => clients.id, {
      onDelete: "set null",
    }),
    /** Whether hours may be logged on days after today (vacation planned ahead always may). */
    allow_future_activities: boolean("allow_future_activities").notNull().default(false),
    /** A week submitted for review and left unreviewed this many days is approved by SIA; null: never. */
    auto_approve_days: integer("auto_approve_days"),
    ...timestamps,
  },
  (t) => [
    check("app_settings_single_row", sql`${t.id} = 1`),
    check("app_settings_auto_approve_days", sql`${t.auto_approve_days} between 1 and 60`),
  ],
);

/**
 * Activities. One employee's activities never overlap: an exclusion constraint over
 * tstzrange(begins_at, ends_at) is added by the custom migrations (drizzle cannot declare EXCLUDE), DEFERRABLE
 * so the week save's one UPDATE can swap two activities' times (migration 0007).
 */
export const activities = pgTable(
  "activities",
  {
    id: serial("id").primaryKey(),
    employee_id: integer("employee_id")
      .notNull()
      .references(() => employees.id, { onDelete: "restrict" }),
    begins_at: timestamp("begins_at", { withTimezone: true }).notNull(),
    ends_at: timestamp("ends_at", { withTimezone: true }).notNull(),
    description: text("description").notNull(),
    activity_type_catalog_id: integer("activity_type_catalog_id").references(() => activity_type_catalogs.id, {
      onDelete: "restrict",
    }),
    action_type: varchar("action_type", { length: 20 }).notNull(),
    ownerable_id: integer("ownerable_id"),
    ownerable_type: varchar("ownerable_type", { length: 20 }),
    project_id: integer("project_id").references(() => projects.id, { onDelete: "restrict" }),
    product_catalog_id: integer("product_catalog_id").references(() => products.id, { onDelete: "restrict" }),
    short_title: varchar("short_title", { length: 300 }),
    ticket_id: varchar("ticket_id", { length: 60 }),
    ticket_name: varchar("ticket_name", { length: 500 }),
    is_favorite: boolean("is_favorite").notNull().default(false),
    update_by: integer("update_by").references(() => users.id, { onDelete: "set null" }),
    is_editable: boolean("is_editable").notNull().default(true),
    google_calendar_id: varchar("google_calendar_id", { length: 300 }),
    google_calendar_event: jsonb("google_calendar_event"),
    /** Idempotency key of an imported event (calendar id + start, or CSV row hash). */
    import_key: varchar("import_key", { length: 300 }),
    ...timestamps,
  },
  (t) => [
    index("activities_employee_begins_idx").on(t.employee_id, t.begins_at),
    index("activities_begins_idx").on(t.begins_at),
    index("activities_project_idx").on(t.project_id),
    index("activities_owner_idx").on(t.ownerable_type, t.ownerable_id),
    index("activities_favorite_idx").on(t.employee_id).where(sql`${t.is_favorite}`),
    uniqueIndex("activities_import_key_unique").on(t.employee_id, t.import_key),
    check("activities_range", sql`${t.ends_at} > ${t.begins_at}`),
    check("activities_action_type", sql.raw(`action_type in (${sqlList(ACTION_TYPES)})`)),
    check(
      "activities_ownerable",
      sql`(${t.ownerable_type} is null and ${t.ownerable_id} is null) or (${t.ownerable_type} in ('Client','Prospect') and ${t.ownerable_id} is not null)`,
    ),
  ],
);
export type Activity = typeof activities.$inferSelect;

/** Closed weeks and frozen months of one employee (dates inclusive). */
export const frozen_periods = pgTable(
  "frozen_periods",
  {
    id: serial("id").primaryKey(),
    employee_id: integer("employee_id")
      .notNull()
      .references(() => employees.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 10 }).notNull(),
    starts_on: date("starts_on", { mode: "string" }).notNull(),
    ends_on: date("ends_on", { mode: "string" }).notNull(),
    closed_by: integer("closed_by").references(() => users.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("frozen_periods_unique").on(t.employee_id, t.kind, t.starts_on),
    check("frozen_periods_kind", sql`${t.kind} in ('week','month')`),
    check("frozen_periods_dates", sql`${t.ends_on} >= ${t.starts_on}`),
  ],
);

/**
 * A week sent to review (docs/decisions/050-week-approval.md): submitted by its employee, approved or
 * returned by a boss of the employee's workspace or an administrator. Submitted and approved weeks are
 * frozen with frozen_periods' own row (the same freeze every write path checks); a returned week is not.
 */
export const week_reviews = pgTable(
  "week_reviews",
  {
    id: serial("id").primaryKey(),
    employee_id: integer("employee_id")
      .notNull()
      .references(() => employees.id, { onDelete: "cascade" }),
    starts_on: date("starts_on", { mode: "string" }).notNull(),
    state: varchar("state", { length: 10 }).notNull(),
    submitted_at: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    submitted_by: integer("submitted_by").references(() => users.id, { onDelete: "set null" }),
    reviewed_at: timestamp("reviewed_at", { withTimezone: true }),
    reviewed_by: integer("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    /** Why the week was returned (or reopened), shown to its employee until they send it again. */
    return_reason: text("return_reason"),
    /** Approved by the automatic approval job, not by a person. */
    auto_approved: boolean("auto_approved").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("week_reviews_unique").on(t.employee_id, t.starts_on),
    index("week_reviews_state").on(t.state, t.submitted_at),
    check("week_reviews_state_check", sql`${t.state} in ('submitted','approved','returned')`),
    check("week_reviews_monday", sql`extract(isodow from ${t.starts_on}) = 1`),
  ],
);

/** What a recurring calendar event was mapped to last time, so next week it arrives valid. */
export const calendar_mappings = pgTable(
  "calendar_mappings",
  {
    id: serial("id").primaryKey(),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    series_key: varchar("series_key", { length: 300 }).notNull(),
    mapping: jsonb("mapping").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("calendar_mappings_unique").on(t.user_id, t.series_key)],
);

/** Notices administrators send (SPEC §7 POST notifications): to everyone or to one notifiable workspace. */
export const notices = pgTable(
  "notices",
  {
    id: serial("id").primaryKey(),
    message: text("message").notNull(),
    author_name: varchar("author_name", { length: 200 }).notNull(),
    workspace_id: integer("workspace_id").references(() => workspaces.id, { onDelete: "set null" }),
    created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("notices_length", sql`char_length(${t.message}) between 1 and 1000`)],
);

export const NOTIFICATION_KINDS = NOTIFICATION_KIND_VALUES;

/**
 * Each user's in-app notifications (the bell): a notice, a mention on a project board, a project
 * note (projects/:id/notify_user), or a week returned by its reviewer (kind "review", with its week_start). `user_id` is the recipient. Mentions not seen within a day are
 * e-mailed once by the hourly job (emailed_at).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    message: text("message").notNull(),
    author_name: varchar("author_name", { length: 200 }).notNull(),
    user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    workspace_id: integer("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 20 }).notNull().default("notice"),
    project_id: integer("project_id").references(() => projects.id, { onDelete: "cascade" }),
    project_message_id: integer("project_message_id").references(() => project_messages.id, { onDelete: "cascade" }),
    notice_id: integer("notice_id").references(() => notices.id, { onDelete: "cascade" }),
    /** A review's notification: the Monday of the week it is about (the bell opens that week). */
    week_start: date("week_start", { mode: "string" }),
    seen_at: timestamp("seen_at", { withTimezone: true }),
    emailed_at: timestamp("emailed_at", { withTimezone: true }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notifications_created_idx").on(t.created_at),
    index("notifications_user_idx").on(t.user_id, t.id),
    check("notifications_kind", sql.raw(`kind in (${NOTIFICATION_KINDS.map((k) => `'${k}'`).join(",")})`)),
  ],
);

export const project_messages = pgTable(
  "project_messages",
  {
    id: serial("id").primaryKey(),
    project_id: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    // 500 characters as a person counts them (src/core/schemas/board.ts), up to 8000 code points.
    body: varchar("body", { length: 8000 }).notNull(),
    mentions: integer("mentions").array().notNull().default(sql`'{}'::integer[]`),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("project_messages_project_idx").on(t.project_id, t.id),
    check("project_messages_length", sql`char_length(${t.body}) between 1 and 8000`),
  ],
);

export const project_message_reads = pgTable(
  "project_message_reads",
  {
    message_id: integer("message_id")
      .notNull()
      .references(() => project_messages.id, { onDelete: "cascade" }),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    read_at: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("project_message_reads_pk").on(t.message_id, t.user_id)],
);

export const push_subscriptions = pgTable("push_subscriptions", {
  id: serial("id").primaryKey(),
  user_id: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  endpoint: text("endpoint").notNull().unique(),
  keys: jsonb("keys").notNull(),
  user_agent: varchar("user_agent", { length: 500 }),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Keys the server makes once and every process shares (the Web Push VAPID key pair). */
export const app_keys = pgTable("app_keys", {
  name: varchar("name", { length: 60 }).primaryKey(),
  value: jsonb("value").notNull(),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Runs of scheduled jobs, one row per job and period, so a job runs once per period across processes. */
export const job_runs = pgTable(
  "job_runs",
  {
    id: serial("id").primaryKey(),
    job: varchar("job", { length: 60 }).notNull(),
    period_key: varchar("period_key", { length: 60 }).notNull(),
    status: varchar("status", { length: 20 }).notNull().default("done"),
    detail: text("detail"),
    ran_at: timestamp("ran_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("job_runs_unique").on(t.job, t.period_key)],
);
