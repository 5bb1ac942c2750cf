/**
 * The pipeline's verbs (SPEC §4, §7): quotations, the prospect's conversion, projects and invoices — their
 * state events, histories and audit trails. A call that changes a record sends the version it read.
 */
import type { Identifier, RaRecord } from "react-admin";
import type { InvoiceTransitionInput } from "../core/schemas/invoice";
import type { AuditLog, ProjectStage, ProjectTransitionInput } from "../core/schemas/project";
import type { QuotationTransitionInput } from "../core/schemas/quotation";
import { ifMatch, recordPath } from "./base";
import { apiFetch } from "./http";

export type { AuditLog, ProjectStage };
/** POST projects/:id/aasm_transition {project: {event, audit_comment, date, responsible_id, eta}}. */
export type ProjectTransition = ProjectTransitionInput;
/** POST quotations/:id/aasm_transition body (client_hash / project_hash adjust what approve_quote creates). */
export type QuotationTransition = QuotationTransitionInput;

export const pipelineVerbs = {
  // Quotations and prospects.
  /** GET quotations/quotation_states → [{id, name}] (Spanish labels; finalizada is "Alta Cliente"). */
  quotationStates: () =>
    apiFetch<{ quotation_states: { id: string; name: string }[] }>("quotations/quotation_states").then((r) => r.quotation_states),
  /** POST quotations/:id/aasm_transition: answers the quotation (after approve_quote, with client_id and project_id). */
  transitionQuotation: (id: Identifier, input: QuotationTransition, version?: number) =>
    apiFetch<{ quotation: RaRecord }>(recordPath("quotations", id, "aasm_transition"), {
      method: "POST",
      body: input,
      headers: ifMatch(version),
    }).then((r) => r.quotation),
  /** POST prospects/:id/convert_to_client {client}: the new client, and the warning when the old folder stayed. */
  convertProspectToClient: (id: Identifier, client: Record<string, unknown>) =>
    apiFetch<{ client: RaRecord; warning?: string }>(recordPath("prospects", id, "convert_to_client"), {
      method: "POST",
      body: { client },
    }),
  // Projects.
  /** GET projects/get_next_project_code → the code a new project gets. */
  nextProjectCode: () =>
    apiFetch<{ next_project_code: string }>("projects/get_next_project_code").then((r) => r.next_project_code),
  /** POST projects/:id/aasm_transition {project: {event, audit_comment, date, responsible_id, eta}}. */
  transitionProject: (id: Identifier, input: ProjectTransition, version?: number) =>
    apiFetch<{ project: RaRecord }>(recordPath("projects", id, "aasm_transition"), {
      method: "POST",
      body: { project: input },
      headers: ifMatch(version),
    }).then((r) => r.project),
  projectStages: (id: Identifier) =>
    apiFetch<{ project_stages: ProjectStage[] }>(recordPath("projects", id, "project_stages")).then((r) => r.project_stages),
  /** POST projects/:id/extend_project {project: {eta, audit_comment, …}}. */
  extendProject: (id: Identifier, input: { eta: string | null; audit_comment: string }, version?: number) =>
    apiFetch<{ project: RaRecord }>(recordPath("projects", id, "extend_project"), {
      method: "POST",
      body: { project: input },
      headers: ifMatch(version),
    }).then((r) => r.project),
  /** POST projects/:id/completely_invoiced | partially_invoiced. */
  markInvoiced: (
    id: Identifier,
    action: "completely_invoiced" | "partially_invoiced",
    audit_comment?: string,
    version?: number,
  ) =>
    apiFetch<{ project: RaRecord }>(recordPath("projects", id, action), {
      method: "POST",
      body: { project: { audit_comment: audit_comment || null } },
      headers: ifMatch(version),
    }).then((r) => r.project),
  /** POST projects/:id/notify_user: records notifications; answers whether an e-mail went out. */
  notifyProjectUsers: (id: Identifier, message?: string) =>
    apiFetch<{ notified: number; email_sent: boolean; message: string }>(recordPath("projects", id, "notify_user"), {
      method: "POST",
      body: { project: { message: message || null } },
    }),
  /** GET projects/:id/audit_logs, invoices/:id/audit_logs or quotations/:id/audit_logs. */
  auditLogs: (resource: "projects" | "invoices" | "quotations", id: Identifier) =>
    apiFetch<{ audit_logs: AuditLog[] }>(recordPath(resource, id, "audit_logs")).then((r) => r.audit_logs),
  // Invoices.
  /** GET invoices/percentage_to_invoice?project_id → missing_percentage. */
  percentageToInvoice: (projectId: Identifier) =>
    apiFetch<{ missing_percentage: number }>("invoices/percentage_to_invoice", { query: { project_id: String(projectId) } }).then(
      (r) => Number(r.missing_percentage),
    ),
  /** POST invoices/:id/aasm_transition {invoice: {event, audit_comment, date, folio}}. */
  transitionInvoice: (id: Identifier, input: InvoiceTransitionInput, version?: number) =>
    apiFetch<{ invoice: RaRecord }>(recordPath("invoices", id, "aasm_transition"), {
      method: "POST",
      body: { invoice: input },
      headers: ifMatch(version),
    }).then((r) => r.invoice),
};
