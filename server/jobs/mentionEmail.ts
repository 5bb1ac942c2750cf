/**
 * Mentions not seen within a day go out by e-mail, once each. Hourly, through the job runner
 * (advisory lock + job_runs), so several server processes send each message once; a notification is
 * marked `emailed_at` only when its message went out.
 */
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { boardMessages, jobMessages } from "../../src/core/messages";
import { publicAddress } from "../config";
import type { Tx } from "../db/client";
import { notifications, projects, users } from "../db/schema";
import type { MailPort } from "../ports/mail";
import { type JobDefinition, sendEach } from "./runner";
import { hourPeriod } from "./schedule";

export const MENTION_EMAIL_LOCK_KEY = 7_310_091;
export const MENTION_EMAIL_AFTER_MS = 24 * 60 * 60 * 1000;

export async function emailUnseenMentions(tx: Tx, mail: MailPort, now: Date, base: string) {
  const due = await tx
    .select({
      id: notifications.id,
      email: users.email,
      author: notifications.author_name,
      body: notifications.message,
      project_id: notifications.project_id,
      project: sql<string>`coalesce(${projects.project_code} || ' ' || ${projects.name}, '')`,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.user_id))
    .leftJoin(projects, eq(projects.id, notifications.project_id))
    .where(
      and(
        eq(notifications.kind, "mention"),
        isNull(notifications.seen_at),
        isNull(notifications.emailed_at),
        lte(notifications.created_at, new Date(now.getTime() - MENTION_EMAIL_AFTER_MS)),
      ),
    )
    .orderBy(notifications.id)
    .for("update", { of: notifications, skipLocked: true });
  const sentIds: number[] = [];
  const failed: Array<{ to: string; error: string }> = [];
  for (const n of due) {
    const link = new URL(`/app/projects/${n.project_id}?tab=board`, base).toString();
    const result = await sendEach(mail, [
      {
        to: n.email,
        subject: boardMessages.mentionMailSubject(n.project),
        text: boardMessages.mentionMailText(n.author, n.project, n.body, link),
      },
    ]).catch((error: Error) => ({ sent: [] as string[], failed: [{ to: n.email, error: error.message }] }));
    if (result.sent.length) sentIds.push(n.id);
    failed.push(...result.failed);
  }
  if (sentIds.length) await tx.update(notifications).set({ emailed_at: now }).where(inArray(notifications.id, sentIds));
  return { sent: sentIds, failed };
}

export const mentionEmailJob: JobDefinition = {
  name: "mention_email",
  lockKey: MENTION_EMAIL_LOCK_KEY,
  period: hourPeriod,
  due: () => true,
  async run({ tx, now, mail, config }) {
    const { sent, failed } = await emailUnseenMentions(tx, mail, now, publicAddress(config));
    return {
      count: sent.length,
      message: jobMessages.jobMentionsEmailed(sent.length) + (failed.length ? jobMessages.jobSendFailures(failed.length) : ""),
      notifications: sent,
      failed,
    };
  },
};
