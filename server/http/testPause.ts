/**
 * A pause point for the crash tests (tests/reliability/crash.test.ts). With NODE_ENV=test and
 * SIA_TEST_PAUSE=<point>, the service reaching `testPause(point)` — inside its open transaction, after its
 * first writes — prints «SIA_TEST_PAUSED <point>» on stdout and waits for ever: the test then kills the
 * process with SIGKILL, knowing the kill lands mid-transaction. With SIA_TEST_PAUSE_MS it goes on after
 * that many milliseconds instead (a backup test acts while the transaction is open, then lets it commit).
 * Any other environment: a no-op.
 */
/** "move_copy": npm run move-to-postgres, after each batch copied (its interruption test signals it there). */
export type PausePoint = "week_save" | "holiday_import" | "quotation_approval" | "move_copy";

export async function testPause(point: PausePoint): Promise<void> {
  if (process.env.NODE_ENV !== "test" || process.env.SIA_TEST_PAUSE !== point) return;
  process.stdout.write(`SIA_TEST_PAUSED ${point}\n`);
  const resumeAfter = Number(process.env.SIA_TEST_PAUSE_MS);
  if (resumeAfter > 0) await new Promise((resolve) => setTimeout(resolve, resumeAfter));
  else await new Promise<never>(() => {});
}
