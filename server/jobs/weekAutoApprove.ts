/**
 * Weeks left in review too long are approved by SIA, when the firm asked for it (app_settings'
 * auto_approve_days; off by default). Daily from DAILY_JOBS_TIME, once per local day, through the job runner
 * (advisory lock + job_runs), so two servers approve each week once. The audit trail says who approved it:
 * nobody (the system), with the rule as its comment.
 */
import { eq } from "drizzle-orm";
import { reviewMessages } from "../../src/core/messages";
import { app_settings } from "../db/schema";
import { autoApprove } from "../modules/week_reviews";
import type { JobDefinition } from "./runner";
import { dailyDue, dayPeriod } from "./schedule";

export const WEEK_AUTO_APPROVE_LOCK_KEY = 7_310_131;

export const weekAutoApproveJob: JobDefinition = {
  name: "week_auto_approve",
  lockKey: WEEK_AUTO_APPROVE_LOCK_KEY,
  period: dayPeriod,
  due: dailyDue,
  async run({ tx, now }) {
    const [settings] = await tx.select({ days: app_settings.auto_approve_days }).from(app_settings).where(eq(app_settings.id, 1));
    const days = settings?.days ?? null;
    if (!days) return { count: 0, message: reviewMessages.jobAutoApproveOff, approved: [] };
    const approved = await autoApprove(tx, now, days);
    return {
      count: approved.length,
      message: reviewMessages.jobAutoApproved(approved.length),
      approved: approved.map((r) => r.id),
      days,
    };
  },
};
