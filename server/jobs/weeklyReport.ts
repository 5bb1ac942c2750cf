/**
 * Tuesday report: for each notifiable workspace (is_notifiable), its bosses (bosses_workspaces, active
 * employees with a user e-mail) get one e-mail with the previous week's activity report of the workspace
 * attached as CSV. A notifiable workspace without such bosses is skipped and counted.
 */
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { jobMessages } from "../../src/core/messages";
import type { Tx } from "../db/client";
import { bosses_workspaces, employees, users, workspaces } from "../db/schema";
import { csvHeader } from "../http/csv";
import { ACTIVITY_REPORT_HEADERS, reportQuery } from "../modules/reports";
import type { MailMessage } from "../ports/mail";
import { type JobDefinition, sendEach } from "./runner";
import { previousWeekPeriod, weeklyDue } from "./schedule";

export const WEEKLY_REPORT_LOCK_KEY = 7_310_062;

/**
 * The week's activity report of a workspace as CSV: the report module's query, whose rows are the CSV lines
 * (server/modules/reports/report.ts), after the BOM and the header. It runs in the job's
 * transaction: reportCsvStream() reads through its own connection (a cursor), which on PGlite would wait
 * for this very transaction to end; a week of one workspace is small enough to collect in memory.
 */
export async function workspaceWeekCsv(tx: Tx, workspaceId: number, starts_on: string, ends_on: string) {
  const result = await tx.execute(reportQuery({ kind: "workspace", id: workspaceId, start_date: starts_on, end_date: ends_on }));
  const rows = (result as unknown as { rows: { line: string }[] }).rows;
  let csv = csvHeader(ACTIVITY_REPORT_HEADERS);
  for (const row of rows) csv += row.line;
  return { csv, rows: rows.length };
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
    let skipped = 0;
    const messages: MailMessage[] = [];
    for (const workspace of notifiable) {
      const to = [...new Set(bosses.filter((b) => b.workspace_id === workspace.id).map((b) => b.email))];
      if (!to.length) {
        skipped++;
        continue;
      }
      const { csv, rows } = await workspaceWeekCsv(tx, workspace.id, starts_on, ends_on);
      messages.push({
        to,
        subject: jobMessages.reportSubject(workspace.name, starts_on, ends_on),
        text: jobMessages.reportBody(workspace.name, starts_on, ends_on, rows),
        attachments: [
          { filename: reportFilename(workspace.name, starts_on, ends_on), content: csv, contentType: "text/csv; charset=utf-8" },
        ],
      });
    }
    const { sent, failed } = await sendEach(mail, messages);
    return {
      count: sent.length,
      message:
        jobMessages.jobReportsSent(sent.length, skipped) + (failed.length ? jobMessages.jobSendFailures(failed.length) : ""),
      recipients: sent,
      failed,
      skipped,
    };
  },
};
