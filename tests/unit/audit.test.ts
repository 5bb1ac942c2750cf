/** `npm run audit`'s decision (server/cli/audit.ts): unexplained high/critical advisories fail, unreachable is «no verificado». */
import { describe, expect, it } from "vitest";
import { decideAudit } from "../../server/cli/audit";

const report = (vias: unknown[]) =>
  JSON.stringify({
    auditReportVersion: 2,
    vulnerabilities: {
      lodash: { name: "lodash", severity: "high", via: vias },
      "some-parent": { name: "some-parent", severity: "high", via: ["lodash"] },
    },
    metadata: { vulnerabilities: { high: 1, critical: 0, total: 1 } },
  });
const high = {
  source: 1106913,
  name: "lodash",
  title: "Command Injection in lodash",
  url: "https://github.com/advisories/GHSA-35jh-r3h4-6jhm",
  severity: "high",
  range: "<4.17.21",
};
const exception = {
  id: "GHSA-35jh-r3h4-6jhm",
  package: "lodash",
  why: "template() never gets user input",
  reviewed: "2026-11-23",
};

describe("npm run audit", () => {
  it("fails on an unexplained high or critical advisory", () => {
    const d = decideAudit(report([high]), []);
    expect(d.status).toBe("fail");
    expect(d.unexplained.map((a) => a.id)).toEqual(["GHSA-35jh-r3h4-6jhm"]);
    expect(d.lines.join("\n")).toContain("SIN EXPLICAR: high lodash GHSA-35jh-r3h4-6jhm");
    expect(decideAudit(report([{ ...high, severity: "critical" }]), []).status).toBe("fail");
  });

  it("passes when each is explained (id and package), not when the explanation is empty or for another package", () => {
    expect(decideAudit(report([high]), [exception]).status).toBe("ok");
    expect(decideAudit(report([high]), [{ ...exception, why: " " }]).status).toBe("fail");
    expect(decideAudit(report([high]), [{ ...exception, package: "underscore" }]).status).toBe("fail");
  });

  it("ignores moderate and low advisories, and lists exceptions no longer needed", () => {
    const d = decideAudit(report([{ ...high, severity: "moderate" }]), [exception]);
    expect(d.status).toBe("ok");
    expect(d.lines.join("\n")).toContain("excepción sin aviso vigente");
  });

  it("a clean report passes", () => {
    expect(decideAudit(JSON.stringify({ auditReportVersion: 2, vulnerabilities: {}, metadata: {} }), []).status).toBe("ok");
  });

  it("an unreachable advisory database (HTTP 405 here) is «no verificado», not a failure", () => {
    const d = decideAudit(
      JSON.stringify({
        message: "405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk",
        statusCode: 405,
      }),
      [],
    );
    expect(d.status).toBe("unverified");
    expect(d.lines[0]).toMatch(/^no verificado: .*405 Method Not Allowed/);
    expect(decideAudit("", []).status).toBe("unverified");
    expect(decideAudit(JSON.stringify({ error: { code: "ENOAUDIT", summary: "sin red" } }), []).lines[0]).toContain("sin red");
  });
});
