/**
 * Tuesday report: for each notifiable workspace (is_notifiable), its bosses (bosses_workspaces, active
 * employees with a user e-mail) get one e-mail with the previous week's activity report of the workspace
 * attached as CSV. A notifiable workspace without such bosses is skipped and counted.
 */
import { and, asc, eq, gte, inArray, isNotNull, lte } from "drizzle-orm";
import { jobMessages } from "../../src/core/messages";
import { endOfDay, startOfDay } from "../../src/core/week";
import type { Tx } from "../db/client";
import {
  activities,
  activity_type_catalogs,
  bosses_workspaces,
  clients,
  employees,
  products,
  projects,
  prospects,
  users,
  workspaces,
} from "../db/schema";
import { toCsv } from "../http/csv";
import { ACTIVITY_CSV } from "../modules/activities/resource";
import type { JobDefinition } from "./runner";
import { previousWeekPeriod, weeklyDue } from "./schedule";

export const WEEKLY_REPORT_LOCK_KEY = 7_310_062;

/**
 * The week's activities of the workspace's employees as CSV (the activities export's columns, the one
 * CSV writer: UTF-8 with BOM).
 */
export async function workspaceWeekCsv(tx: Tx, workspaceId: number, starts_on: string, ends_on: string) {
  const rows = await tx
    .select({
      id: activities.id,
      employee_name: employees.name,
      begins_at: activities.begins_at,
      ends_at: activities.ends_at,
      action_type: activities.action_type,
      activity_type_code: activity_type_catalogs.code,
      project_code: projects.project_code,
      project_name: projects.name,
      client_name: clients.name,
      prospect_name: prospects.name,
      ownerable_type: activities.ownerable_type,
      product_name: products.name,
      ticket_id: activities.ticket_id,
      description: activities.description,
    })
    .from(activities)
    .innerJoin(employees, eq(employees.id, activities.employee_id))
    .leftJoin(activity_type_catalogs, eq(activity_type_catalogs.id, activities.activity_type_catalog_id))
    .leftJoin(projects, eq(projects.id, activities.project_id))
    .leftJoin(clients, and(eq(activities.ownerable_type, "Client"), eq(clients.id, activities.ownerable_id)))
    .leftJoin(prospects, and(eq(activities.ownerable_type, "Prospect"), eq(prospects.id, activities.ownerable_id)))
    .leftJoin(products, eq(products.id, activities.product_catalog_id))
    .where(
      and(
        eq(employees.workspace_id, workspaceId),
        gte(activities.begins_at, startOfDay(starts_on)),
        lte(activities.begins_at, endOfDay(ends_on)),
      ),
    )
    .orderBy(asc(employees.name), asc(activities.begins_at));
  const csvRows = rows.map((r) => ({
    ...r,
    begins_at: r.begins_at.toISOString(),
    ends_at: r.ends_at.toISOString(),
    ownerable_name: r.ownerable_type === "Prospect" ? r.prospect_name : r.client_name,
  }));
  return { csv: toCsv(ACTIVITY_CSV, csvRows), rows: rows.length };
}

const slug = (name: string) =>
  name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase() || "espacio";

export const reportFilename = (workspace: string, starts_on: string, ends_on: string) =>
  `reporte_${slug(workspace)}_${starts_on}_${ends_on}.csv`;

export const weeklyReportJob: JobDefinition = {
  name: "weekly_report",
  lockKey: WEEKLY_REPORT_LOCK_KEY,
  period: previousWeekPeriod,
  due: weeklyDue,
  async run({ tx, period, mail }) {
    const starts_on = period.starts_on as string;
    const ends_on = period.ends_on as string;
    const notifiable = await tx
      .select({ id: workspaces.id, name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.is_notifiable, true))
      .orderBy(asc(workspaces.id));
    const bosses = notifiable.length
      ? await tx
          .select({ workspace_id: bosses_workspaces.workspace_id, email: users.email })
          .from(bosses_workspaces)
          .innerJoin(employees, eq(employees.id, bosses_workspaces.employee_id))
          .innerJoin(users, eq(users.id, employees.user_id))
          .where(
            and(
              inArray(
                bosses_workspaces.workspace_id,
                notifiable.map((w) => w.id),
              ),
              eq(employees.is_active, true),
              isNotNull(employees.user_id),
            ),
          )
          .orderBy(asc(users.email))
      : [];
    let sent = 0;
    let skipped = 0;
    const recipients: string[] = [];
    for (const workspace of notifiable) {
      const to = [...new Set(bosses.filter((b) => b.workspace_id === workspace.id).map((b) => b.email))];
      if (!to.length) {
        skipped++;
        continue;
      }
      const { csv, rows } = await workspaceWeekCsv(tx, workspace.id, starts_on, ends_on);
      await mail.send({
        to,
        subject: jobMessages.reportSubject(workspace.name, starts_on, ends_on),
        text: jobMessages.reportBody(workspace.name, starts_on, ends_on, rows),
        attachments: [
          { filename: reportFilename(workspace.name, starts_on, ends_on), content: csv, contentType: "text/csv; charset=utf-8" },
        ],
      });
      sent++;
      recipients.push(...to);
    }
    return { count: sent, message: jobMessages.jobReportsSent(sent, skipped), recipients, skipped };
  },
};
