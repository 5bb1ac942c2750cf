/** The figures a reliability or security test reports: printed, and kept in .ci-results/ for CI's summary. */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Figures of a reliability or security test, printed and written to .ci-results/figures-<name>.json. */
export function recordFigures(name: string, line: string, figures: Record<string, unknown>) {
  const tag = process.env.DATABASE_URL ? "postgres" : "pglite";
  console.log(`[${name}] (${tag}) ${line}`);
  const dir = path.join(ROOT, ".ci-results");
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `figures-${name}-${tag}.json`),
      `${JSON.stringify({ name, database: tag, line, ...figures }, null, 2)}\n`,
    );
  } catch {
    // The figures are a report, never a reason to fail.
  }
}
