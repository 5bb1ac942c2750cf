/** The scheduled jobs, in the order the scheduler and the administrators' page show them. */
import type { JobName } from "../../src/core/constants";
import { budgetAlertsJob } from "./budgetAlerts";
import { mentionEmailJob } from "./mentionEmail";
import { nightlyBackupJob } from "./nightlyBackup";
import type { JobDefinition } from "./runner";
import { warrantyJob } from "./warrantyAutoClose";
import { weekAutoApproveJob } from "./weekAutoApprove";
import { weeklyReminderJob } from "./weeklyReminder";
import { weeklyReportJob } from "./weeklyReport";

export const JOBS: readonly JobDefinition[] = [
  weeklyReminderJob,
  weeklyReportJob,
  warrantyJob,
  mentionEmailJob,
  nightlyBackupJob,
  budgetAlertsJob,
  weekAutoApproveJob,
];
export const jobByName = (name: string): JobDefinition | undefined => JOBS.find((j) => j.name === (name as JobName));
