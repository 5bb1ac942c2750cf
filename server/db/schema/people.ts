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
import { WORKING_DAY_HOURS } from "../../../src/core/constants";
import { timestamps } from "./_helpers";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 200 }).notNull(),
    email: varchar("email", { length: 254 }).notNull(),
    password_digest: text("password_digest"),
    administrator_role: boolean("administrator_role").notNull().default(false),
    operator_role: boolean("operator_role").notNull().default(false),
    finance_role: boolean("finance_role").notNull().default(false),
    can_chat: boolean("can_chat").notNull().default(false),
    /**
     * The user's Azure DevOps token, encrypted at rest like the calendar's (server/http/secrets.ts);
     * write-only in the API (has_azure_token says whether one is saved). Values saved in plain text
     * before are encrypted on start (encryptStoredSecrets).
     */
    azure_token: text("azure_token"),
    /** Calendar token from save_cloud_token, encrypted at rest (AES-GCM, key from config). */
    cloud_token_encrypted: text("cloud_token_encrypted"),
    google_id: varchar("google_id", { length: 200 }),
    /** Bumped on password change: sessions issued before it are void. */
    password_changed_at: timestamp("password_changed_at", { withTimezone: true }),
    /**
     * The identity provider's account this user is bound to (issuer + stable subject: Entra's `oid`, else
     * `sub`), set on the first single sign-on; from then on only that account signs in as this user.
     */
    sso_issuer: varchar("sso_issuer", { length: 500 }),
    sso_subject: varchar("sso_subject", { length: 255 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    uniqueIndex("users_sso_subject_unique").on(t.sso_issuer, t.sso_subject),
  ],
);
export type User = typeof users.$inferSelect;

export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    token_hash: varchar("token_hash", { length: 64 }).notNull().unique(),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    user_agent: varchar("user_agent", { length: 500 }),
    ip: varchar("ip", { length: 64 }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    last_seen_at: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.user_id)],
);

/** Failed sign-ins, counted per e-mail across every server process for the login rate limit. */
export const login_attempts = pgTable(
  "login_attempts",
  {
    id: serial("id").primaryKey(),
    email: varchar("email", { length: 254 }).notNull(),
    ip: varchar("ip", { length: 64 }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_attempts_email_idx").on(t.email, t.created_at)],
);

/** Nonces of single sign-on ID tokens already used (sha-256): a token is accepted once. Kept a day. */
export const sso_used_nonces = pgTable(
  "sso_used_nonces",
  {
    nonce_hash: varchar("nonce_hash", { length: 64 }).primaryKey(),
    used_at: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sso_used_nonces_used_at_idx").on(t.used_at)],
);

export const employee_positions = pgTable("employee_positions", {
  id: serial("id").primaryKey(),
  name: varchar("name", { length: 120 }).notNull().unique(),
  ...timestamps,
});

export const workspaces = pgTable("workspaces", {
  id: serial("id").primaryKey(),
  name: varchar("name", { length: 120 }).notNull().unique(),
  is_notifiable: boolean("is_notifiable").notNull().default(false),
  ...timestamps,
});

export const employees = pgTable(
  "employees",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 200 }).notNull(),
    employee_code: varchar("employee_code", { length: 40 }).notNull().default("0"),
    user_id: integer("user_id").references(() => users.id, { onDelete: "restrict" }),
    is_rape: boolean("is_rape").notNull().default(false),
    is_admin_group: boolean("is_admin_group").notNull().default(false),
    is_active: boolean("is_active").notNull().default(true),
    workspace_id: integer("workspace_id").references(() => workspaces.id, { onDelete: "restrict" }),
    employee_position_id: integer("employee_position_id").references(() => employee_positions.id, {
      onDelete: "restrict",
    }),
    assignable: boolean("assignable").notNull().default(false),
    /** The first day they work for the firm: no week before it is theirs to close. Null: not known (earlier records). */
    start_on: date("start_on", { mode: "string" }),
    /** Hours of their working day (part-time staff work fewer): what the reminders and capacity expect. */
    daily_hours: numeric("daily_hours", { precision: 4, scale: 2, mode: "number" }).notNull().default(WORKING_DAY_HOURS),
    ...timestamps,
  },
  (t) => [
    check("employees_daily_hours", sql`${t.daily_hours} >= 0 and ${t.daily_hours} <= 24`),
    uniqueIndex("employees_user_unique").on(t.user_id),
    uniqueIndex("employees_code_unique").on(t.employee_code).where(sql`${t.employee_code} <> '0'`),
    index("employees_workspace_idx").on(t.workspace_id),
    index("employees_name_idx").on(t.name, t.id),
    index("employees_active_idx").on(t.is_active, t.assignable),
  ],
);
export type Employee = typeof employees.$inferSelect;

export const bosses_workspaces = pgTable(
  "bosses_workspaces",
  {
    id: serial("id").primaryKey(),
    workspace_id: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    employee_id: integer("employee_id")
      .notNull()
      .references(() => employees.id, { onDelete: "cascade" }),
  },
  (t) => [
    uniqueIndex("bosses_workspaces_unique").on(t.workspace_id, t.employee_id),
    check("bosses_workspaces_ids", sql`${t.workspace_id} > 0 and ${t.employee_id} > 0`),
  ],
);
