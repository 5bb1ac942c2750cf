/**
 * What «Forzar» warns about, by job: the e-mail jobs send their period's messages again, the nightly backup
 * writes one more archive (kept until deleted, as every archive made by hand) and sends nothing; the budget
 * alerts tell only thresholds not told yet.
 */
export function forceConfirmationKey(job: string) {
  if (job === "nightly_backup") return "sia.outbox.backup_force_content";
  // The budget alerts remember each project's thresholds told: running the day again tells only what is new.
  if (job === "budget_alerts") return "sia.outbox.budget_force_content";
  // Approving sends nothing: running the day again approves only what is due and not approved yet.
  if (job === "week_auto_approve") return "sia.outbox.approve_force_content";
  return "sia.outbox.force_content";
}
