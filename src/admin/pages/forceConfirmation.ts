/**
 * What «Forzar» warns about, by job: the e-mail jobs send their period's messages again, the nightly backup
 * writes one more archive (kept until deleted, as every archive made by hand) and sends nothing.
 */
export function forceConfirmationKey(job: string) {
  return job === "nightly_backup" ? "sia.outbox.backup_force_content" : "sia.outbox.force_content";
}
