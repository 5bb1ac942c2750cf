/** The scheduled jobs (administrators): their latest runs, and running one now. */
import type { BackupDoneAnswer, BackupView, JobRunAnswer, JobRunView, JobView } from "../core/schemas/jobs";
import { apiFetch } from "./http";

export type { BackupDoneAnswer, BackupView, JobRunAnswer, JobRunView, JobView };

export const jobVerbs = {
  listJobs: () => apiFetch<{ jobs: JobView[] }>("jobs").then((r) => r.jobs),
  /** POST jobs/:name/run {force}: runs the job for its current period (force: again, even if it already ran). */
  runJob: (name: string, force = false) =>
    apiFetch<JobRunAnswer>(`jobs/${encodeURIComponent(name)}/run`, { method: "POST", body: { force } }),
  /** GET backups: the archives in BACKUP_DIR, newest first, and how many the nightly job keeps. */
  listBackups: () => apiFetch<{ backups: BackupView[]; meta: { total_count: number; keep: number } }>("backups"),
  /** POST backups: «Respaldar ahora», a whole archive written by the server. */
  backupNow: () => apiFetch<BackupDoneAnswer>("backups", { method: "POST" }),
};
