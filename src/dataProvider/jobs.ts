/** The scheduled jobs (administrators): their latest runs, and running one now. */
import type { JobRunAnswer, JobRunView, JobView } from "../core/schemas/jobs";
import { apiFetch } from "./http";

export type { JobRunAnswer, JobRunView, JobView };

export const jobVerbs = {
  listJobs: () => apiFetch<{ jobs: JobView[] }>("jobs").then((r) => r.jobs),
  /** POST jobs/:name/run {force}: runs the job for its current period (force: again, even if it already ran). */
  runJob: (name: string, force = false) =>
    apiFetch<JobRunAnswer>(`jobs/${encodeURIComponent(name)}/run`, { method: "POST", body: { force } }),
};
