/**
 * `npm run audit`: `npm audit --omit=dev --audit-level=high --json`, every high or critical
 * advisory of a production dependency either explained in docs/audit-exceptions.json (id, package, why it
 * does not apply, reviewed date) or a failure. When the advisory database cannot be reached (this network's
 * registry answers the audit endpoint with HTTP 405), it says so — «no verificado» — and does not fail:
 * an unreachable service is not a finding.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface AuditException {
  id: string;
  package: string;
  why: string;
  reviewed: string;
}

export interface Advisory {
  id: string;
  package: string;
  severity: string;
  title: string;
  url: string;
}

export interface AuditDecision {
  status: "ok" | "unverified" | "fail";
  lines: string[];
  advisories: Advisory[];
  unexplained: Advisory[];
}

const SERIOUS = new Set(["high", "critical"]);

/** The id of an advisory: its GHSA id when the URL has one, else npm's numeric source. */
function advisoryId(via: { source?: unknown; url?: unknown }): string {
  const ghsa = typeof via.url === "string" ? via.url.match(/GHSA-[\w-]+/i)?.[0] : undefined;
  return ghsa ?? String(via.source ?? "");
}

/** Reads `npm audit --json`'s output (format 2, npm 7+) and decides. Pure: the unit test feeds it samples. */
export function decideAudit(raw: string, exceptions: AuditException[]): AuditDecision {
  let report: Record<string, unknown> | null = null;
  try {
    report = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    report = null;
  }
  const vulnerabilities = report?.vulnerabilities;
  if (!report || typeof vulnerabilities !== "object" || vulnerabilities === null) {
    const reason =
      (report?.message as string | undefined) ??
      ((report?.error as { summary?: string } | undefined)?.summary || undefined) ??
      "npm audit no devolvió un informe";
    return {
      status: "unverified",
      lines: [`no verificado: no se pudo consultar la base de avisos de seguridad (${reason}).`],
      advisories: [],
      unexplained: [],
    };
  }
  const advisories = new Map<string, Advisory>();
  for (const entry of Object.values(vulnerabilities as Record<string, { via?: unknown[] }>)) {
    for (const via of entry.via ?? []) {
      if (typeof via !== "object" || via === null) continue; // a string: reached through another package
      const v = via as { name?: string; severity?: string; title?: string; url?: string; source?: unknown };
      if (!v.severity || !SERIOUS.has(v.severity)) continue;
      const id = advisoryId(v);
      advisories.set(`${id}:${v.name}`, {
        id,
        package: String(v.name ?? ""),
        severity: v.severity,
        title: String(v.title ?? ""),
        url: String(v.url ?? ""),
      });
    }
  }
  const explained = (a: Advisory) =>
    exceptions.some((e) => e.id.toLowerCase() === a.id.toLowerCase() && e.package === a.package && e.why.trim() && e.reviewed);
  const list = [...advisories.values()];
  const unexplained = list.filter((a) => !explained(a));
  const lines = list.map((a) =>
    `${explained(a) ? "explicado" : "SIN EXPLICAR"}: ${a.severity} ${a.package} ${a.id} — ${a.title} ${a.url}`.trim(),
  );
  for (const e of exceptions) {
    if (!list.some((a) => a.id.toLowerCase() === e.id.toLowerCase() && a.package === e.package))
      lines.push(`excepción sin aviso vigente (puede quitarse): ${e.package} ${e.id}`);
  }
  lines.push(
    unexplained.length
      ? `${unexplained.length} aviso(s) alto(s) o crítico(s) sin explicar en docs/audit-exceptions.json.`
      : `Sin avisos altos o críticos sin explicar (${list.length} explicado(s)).`,
  );
  return { status: unexplained.length ? "fail" : "ok", lines, advisories: list, unexplained };
}

export function readExceptions(file: string): AuditException[] {
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as { exceptions?: AuditException[] };
  return data.exceptions ?? [];
}

async function main() {
  const root = path.resolve(import.meta.dirname, "..", "..");
  const raw = await new Promise<string>((resolve) => {
    execFile(
      "npm",
      ["audit", "--omit=dev", "--audit-level=high", "--json"],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      // npm audit exits non-zero both when it finds advisories and when it cannot ask: the JSON decides.
      (_error, stdout) => resolve(stdout),
    );
  });
  const decision = decideAudit(raw, readExceptions(path.join(root, "docs", "audit-exceptions.json")));
  for (const line of decision.lines) (decision.status === "fail" ? console.error : console.log)(line);
  return decision.status === "fail" ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
