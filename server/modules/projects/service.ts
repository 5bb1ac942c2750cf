/**
 * Project rules (SPEC §4, §5): every state event, ETA extension and invoicing action runs in ONE
 * transaction that first locks the project row (SELECT … FOR UPDATE), so two concurrent requests
 * cannot both apply; the second sees the first's result and is judged against it.
 */
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { MAX_INVOICED_PERCENTAGE } from "../../../src/core/invoiceMachine";
import { messages } from "../../../src/core/messages";
import {
  type MachineEvent,
  PROJECT_CREATE_EVENT,
  PROJECT_CREATE_LABEL,
  permittedEvents,
  projectEvent,
  projectStateLabel,
} from "../../../src/core/projectMachine";
import type { SessionUser } from "../../../src/core/session";
import type { ProjectState } from "../../../src/core/states";
import { businessToday } from "../../../src/core/week";
import { type AuditChange, audit } from "../../db/audit";
import type { Db, Tx } from "../../db/client";
import { employees, project_stages, projects, users } from "../../db/schema";
import { notFound, ValidationError } from "../../http/errors";
import { staleVersion, withValidation } from "../../http/resource";
import type { DriveWork } from "../../ports/documents";
import { driveFailure, placeProjectFolder } from "../drive";
import { invoicedPercentage } from "../invoices";
import { notify } from "../notifications";

export const PROJECT_CODE_PREFIX = "PRY-";

/** The next project code: PRY- and one more than the largest numeric PRY- code, 4 digits at least. */
export async function nextProjectCode(db: Tx): Promise<string> {
  const [row] = await db
    .select({ max: sql<string | null>`max(substring(${projects.project_code} from 5)::bigint)::text` })
    .from(projects)
    .where(sql`${projects.project_code} ~ '^PRY-[0-9]{1,15}$'`);
  const next = Number(row?.max ?? 0) + 1;
  return `${PROJECT_CODE_PREFIX}${String(next).padStart(4, "0")}`;
}

/** Locks and reads the project row for the rest of the transaction; 404 when it does not exist. */
/**
 * The project row, locked for the transaction. `expected`: the version the client read (If-Match), when it
 * sent one: an action taken from a screen another save has since changed answers 409.
 */
export async function lockProject(tx: Tx, id: number, expected?: number) {
  const [row] = await tx.select().from(projects).where(eq(projects.id, id)).for("update");
  if (!row) throw notFound();
  if (expected !== undefined && row.lock_version !== expected) throw staleVersion("project");
  return row;
}

export interface TransitionInput {
  event: string;
  audit_comment: string;
  date?: string | null;
  responsible_id?: number | null;
  eta?: string | null;
}

/**
 * An ETA never comes before the project's date: the state-change dialog, «Extender fecha estimada» and the
 * project's form answer the same 422 on `eta`.
 */
export function checkEtaAfterProjectDate(eta: string | null | undefined, projectDate: string | null | undefined) {
  if (eta && projectDate && eta < projectDate) throw ValidationError.field("eta", messages.etaBeforeProjectDate(projectDate));
}

/** An employee's name for the change log, or a 422 on `field` when there is no such employee. */
async function employeeName(tx: Tx, id: number, field: string): Promise<string> {
  const [row] = await tx.select({ name: employees.name }).from(employees).where(eq(employees.id, id));
  if (!row) throw ValidationError.field(field, messages.invalidReference);
  return row.name;
}

/** The change log's field of a comment saved on its own (its text is the row's comment). */
export const PROJECT_COMMENT_FIELD = "audit_comment";

/** Names of the project's client, PM and responsible as the change log shows them (its ids mean nothing to people). */
export interface ProjectPeople {
  client_id: number;
  client_name?: string | null;
  pm_id: number | null;
  pm_name?: string | null;
  rape_id: number | null;
  rape_name?: string | null;
}

/** The client, PM and responsible changes between two versions of a project, as names. */
export function peopleChanges(before: ProjectPeople, after: ProjectPeople): AuditChange[] {
  const changes: AuditChange[] = [];
  const pairs = [
    ["client_id", "client_name"],
    ["pm_id", "pm_name"],
    ["rape_id", "rape_name"],
  ] as const;
  for (const [id, name] of pairs) {
    if ((before[id] ?? null) === (after[id] ?? null)) continue;
    const label = (p: ProjectPeople) => (p[id] === null ? null : (p[name] ?? `#${p[id]}`));
    changes.push({ field: id, old: label(before), new: label(after) });
  }
  return changes;
}

/**
 * Applies an event to a locked project row: state, state_changed_at, ETA, comment and, when the event
 * names one, the responsible person (RAPE) on the project, a project_stages row and audit_logs rows. The
 * caller has already decided the event is allowed.
 */
export async function applyProjectEvent(
  tx: Tx,
  project: { id: number; state: string; eta: string | null; project_date?: string | null; rape_id?: number | null },
  event: MachineEvent<ProjectState>,
  input: TransitionInput,
  userId: number | null,
  now: Date = new Date(),
) {
  const eta = input.eta ?? project.eta;
  if (input.eta) checkEtaAfterProjectDate(input.eta, project.project_date);
  // The responsible chosen in a state change is the project's responsible from then on, not only the stage's.
  const responsible = input.responsible_id ?? null;
  const before = project.rape_id ?? null;
  const rapeChanges: AuditChange[] = [];
  if (responsible !== null && responsible !== before) {
    const newName = await employeeName(tx, responsible, "responsible_id");
    const oldName = before === null ? null : await employeeName(tx, before, "rape_id");
    rapeChanges.push({ field: "rape_id", old: oldName, new: newName });
  }
  await tx
    .update(projects)
    .set({
      state: event.to,
      state_changed_at: now,
      eta,
      audit_comment: input.audit_comment,
      ...(responsible !== null ? { rape_id: responsible } : {}),
    })
    .where(eq(projects.id, project.id));
  await tx.insert(project_stages).values({
    project_id: project.id,
    event: event.name,
    from_state: project.state,
    to_state: event.to,
    comment: input.audit_comment,
    stage_date: input.date ?? businessToday(now),
    responsible_id: input.responsible_id ?? null,
    eta,
    user_id: userId,
    created_at: now,
  });
  await audit(
    tx,
    { type: "Project", id: project.id },
    [{ field: "state", old: project.state, new: event.to }, { field: "eta", old: project.eta, new: eta }, ...rapeChanges],
    { userId, comment: input.audit_comment },
  );
}

export async function transitionProject(db: Db, user: SessionUser, id: number, input: TransitionInput, expected?: number) {
  await withValidation(() =>
    db.transaction(async (tx) => {
      const project = await lockProject(tx, id, expected);
      const event = permittedEvents(project.state, user).find((e) => e.name === input.event);
      if (!event) {
        const label = projectEvent(input.event)?.label ?? input.event;
        throw new ValidationError({ invalid_transition: [messages.invalidTransition(label, projectStateLabel(project.state))] });
      }
      await applyProjectEvent(tx, project, event, input, user.id);
    }),
  );
}

/** The creation row of the history and the first audit row (state: ∅ → requerimiento). */
export async function recordCreation(
  tx: Tx,
  project: { id: number; state: string; eta: string | null; audit_comment: string | null },
  userId: number,
) {
  await tx.insert(project_stages).values({
    project_id: project.id,
    event: PROJECT_CREATE_EVENT,
    from_state: null,
    to_state: project.state,
    comment: project.audit_comment,
    stage_date: businessToday(),
    eta: project.eta,
    user_id: userId,
  });
  await audit(
    tx,
    { type: "Project", id: project.id },
    [
      { field: "state", old: null, new: project.state },
      { field: "eta", old: null, new: project.eta },
    ],
    { userId, comment: project.audit_comment },
  );
}

export interface ExtendInput {
  eta?: string | null;
  audit_comment: string;
  name?: string;
  project_date?: string | null;
  project_type_catalog_id?: number | null;
}

/** ETA extension (SPEC §7 extend_project): the new ETA must come after the current one. */
export async function extendProject(
  db: Db,
  userId: number,
  id: number,
  input: ExtendInput,
  expected?: number,
  /** The drive work of the request: a new name renames the project's folder in the same transaction. */
  work?: DriveWork,
) {
  await withValidation(() =>
    db.transaction(async (tx) => {
      const project = await lockProject(tx, id, expected);
      const eta = input.eta as string;
      if (project.eta && eta <= project.eta) throw ValidationError.field("eta", messages.etaMustBeLater(project.eta));
      checkEtaAfterProjectDate(eta, input.project_date ?? project.project_date);
      const values: Partial<typeof projects.$inferInsert> = { eta, audit_comment: input.audit_comment };
      if (input.name !== undefined) values.name = input.name;
      if (input.project_date !== undefined) values.project_date = input.project_date;
      if (input.project_type_catalog_id !== undefined) values.project_type_catalog_id = input.project_type_catalog_id;
      await tx.update(projects).set(values).where(eq(projects.id, id));
      await audit(tx, { type: "Project", id }, [{ field: "eta", old: project.eta, new: eta }], {
        userId,
        comment: input.audit_comment,
      });
      if (input.name !== undefined && work) {
        const [row] = await tx.select().from(projects).where(eq(projects.id, id));
        try {
          await placeProjectFolder(tx, work, row, { bump: false });
        } catch (error) {
          driveFailure(error);
        }
      }
    }),
  );
}

/**
 * '100% facturas ya realizadas' → completely_invoiced, otherwise partially_invoiced (SPEC §4). `expected`: the
 * version the dialog was opened on; a project another save has changed since answers 409. Completely
 * invoiced only when the project's invoices (cancelled ones aside) add up to exactly 100 %
 * (docs/decisions/028-final-records-read-only.md).
 */
export async function setInvoiceAction(
  db: Db,
  userId: number,
  id: number,
  action: "completely_invoiced" | "partially_invoiced",
  comment: string | null,
  expected?: number,
) {
  await db.transaction(async (tx) => {
    const project = await lockProject(tx, id, expected);
    // Judged with the project row locked: invoice creates, edits and cancellations wait on the same lock.
    if (action === "completely_invoiced") {
      const invoiced = await invoicedPercentage(tx, id);
      if (invoiced !== MAX_INVOICED_PERCENTAGE) throw ValidationError.base(messages.notFullyInvoiced(invoiced));
    }
    await tx.update(projects).set({ invoice_action: action }).where(eq(projects.id, id));
    await audit(tx, { type: "Project", id }, [{ field: "invoice_action", old: project.invoice_action, new: action }], {
      userId,
      comment,
    });
  });
}

/** The project's state history, oldest first, with the labels the history table shows. */
export async function projectStages(db: Tx, id: number) {
  const responsible = alias(employees, "responsible");
  const rows = await db
    .select({
      id: project_stages.id,
      event: project_stages.event,
      from_state: project_stages.from_state,
      to_state: project_stages.to_state,
      comment: project_stages.comment,
      stage_date: project_stages.stage_date,
      eta: project_stages.eta,
      responsible_id: project_stages.responsible_id,
      responsible_name: responsible.name,
      user_id: project_stages.user_id,
      user_name: users.name,
      created_at: project_stages.created_at,
    })
    .from(project_stages)
    .leftJoin(responsible, eq(responsible.id, project_stages.responsible_id))
    .leftJoin(users, eq(users.id, project_stages.user_id))
    .where(eq(project_stages.project_id, id))
    .orderBy(asc(project_stages.created_at), asc(project_stages.id));
  return rows.map((r) => ({
    ...r,
    event_label: projectEvent(r.event)?.label ?? (r.event === PROJECT_CREATE_EVENT ? PROJECT_CREATE_LABEL : r.event),
    from_state_label: r.from_state ? projectStateLabel(r.from_state) : null,
    to_state_label: projectStateLabel(r.to_state),
  }));
}

/**
 * notify_user (SPEC §7): a notification to the users of the project's PM and responsible, in their bell
 * and on their live feed (the caller pushes the answer's text to their devices); without either of them, a
 * 422. `message` defaults to the project's state.
 */
export async function notifyProjectPeople(
  tx: Tx,
  author: SessionUser,
  project: { id: number; project_code: string; name: string; state: string; pm_id: number | null; rape_id: number | null },
  message: string | null,
) {
  const people = [project.pm_id, project.rape_id].filter((v): v is number => typeof v === "number");
  const recipients = people.length
    ? await tx
        .selectDistinct({ user_id: employees.user_id })
        .from(employees)
        .where(and(inArray(employees.id, people), isNotNull(employees.user_id)))
    : [];
  if (recipients.length === 0) throw ValidationError.base(messages.noUsersToNotify);
  const text = message ?? messages.projectNotice(project.project_code, project.name, projectStateLabel(project.state));
  const notified = await notify(
    tx,
    recipients.map((r) => ({
      message: text,
      author_name: author.name,
      user_id: r.user_id as number,
      kind: "project",
      project_id: project.id,
    })),
  );
  return { notified, text };
}
