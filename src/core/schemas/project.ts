import { messages } from "../messages";
import { flag, isoDate, optionalId, optionalIsoDate, optionalText, requiredId, requiredText, z } from "./fields";
import { COLOR_TAG_PATTERN } from "./project_type";

/** SPEC §5: a comment is required on every state event, ETA extension and audited change. */
export const requiredComment = () =>
  z.preprocess(
    (v) => (v === null || v === undefined ? "" : v),
    z
      .string({ error: messages.commentRequired })
      .trim()
      .min(1, { error: messages.commentRequired })
      .max(2000, { error: messages.tooLong(2000) }),
  );

const colorTag = () =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : v.trim().toUpperCase()) : v),
    z.string({ error: messages.invalidColor }).regex(COLOR_TAG_PATTERN, { error: messages.invalidColor }).nullable().optional(),
  );

/**
 * A date the record cannot be without: '' and null answer «es obligatorio» (an update that omits it
 * keeps the stored one; one that sends it empty is refused, never a way to clear it).
 */
const requiredDate = () => z.preprocess((v) => (v === "" || v === "null" ? null : v), isoDate());

const shape = {
  /** '0', '' or missing: the server assigns GET projects/get_next_project_code's value. */
  project_code: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? "0" : typeof v === "number" ? String(v) : v),
    z
      .string()
      .trim()
      .max(40, { error: messages.tooLong(40) })
      .regex(/^[A-Za-z0-9_.-]+$/, { error: messages.invalidValue }),
  ),
  name: requiredText(250),
  /** Type, product and date are required: a project is typed, sold and dated from the start. */
  project_date: requiredDate(),
  eta: optionalIsoDate(),
  audit_comment: optionalText(2000),
  drive_root_id: optionalText(300),
  drive_root_url: optionalText(2000),
  client_id: requiredId(),
  project_type_catalog_id: requiredId(),
  product_catalog_id: requiredId(),
  rape_id: optionalId(),
  pm_id: optionalId(),
  estimate_hours_needed: flag(),
  color_tag: colorTag(),
};

/** Project (SPEC §3). `state` and `invoice_action` change only through their own calls. */
export const projectSchema = z.object(shape);
export type ProjectInput = z.infer<typeof projectSchema>;
export const projectUpdateSchema = z.object(shape).partial();

/** POST projects/:id/aasm_transition {project: {...}} (SPEC §4). */
export const projectTransitionSchema = z.object({
  /** Unknown names answer invalid_transition, like names not permitted in the current state. */
  event: z.string({ error: messages.required }).trim().min(1, { error: messages.required }).max(60),
  audit_comment: requiredComment(),
  date: optionalIsoDate(),
  responsible_id: optionalId(),
  eta: optionalIsoDate(),
});
export type ProjectTransitionInput = z.infer<typeof projectTransitionSchema>;

/** POST projects/:id/extend_project (SPEC §7): a new ETA and a comment; name, date and type may change too. */
export const extendProjectSchema = z.object({
  eta: z.preprocess((v) => (v === "" || v === null || v === "null" ? undefined : v), isoDate()),
  audit_comment: requiredComment(),
  name: requiredText(250).optional(),
  project_date: requiredDate().optional(),
  project_type_catalog_id: requiredId().optional(),
});

export const notifyUserSchema = z.object({ message: optionalText(500) });

/** One stage of a project's history (GET projects/:id/project_stages). */
export const projectStage = z.object({
  id: z.number().int(),
  event: z.string(),
  event_label: z.string(),
  from_state: z.string().nullable(),
  from_state_label: z.string().nullable(),
  to_state: z.string(),
  to_state_label: z.string(),
  comment: z.string().nullable(),
  stage_date: z.string().nullable(),
  eta: z.string().nullable(),
  responsible_id: z.number().int().nullable(),
  responsible_name: z.string().nullable(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  created_at: z.string(),
});
export type ProjectStage = z.infer<typeof projectStage>;
export const projectStagesAnswer = z.object({ project_stages: z.array(projectStage) });

/** One audited change of a project, invoice or quotation (GET …/:id/audit_logs). */
export const auditLog = z.object({
  id: z.number().int(),
  field: z.string(),
  old_value: z.string().nullable(),
  new_value: z.string().nullable(),
  comment: z.string().nullable(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  created_at: z.string(),
});
export type AuditLog = z.infer<typeof auditLog>;
export const auditLogsAnswer = z.object({ audit_logs: z.array(auditLog) });
/** A quotation's audit log: a state's value also by its name. */
export const labelledAuditLogsAnswer = z.object({
  audit_logs: z.array(auditLog.extend({ old_value_label: z.string().nullable(), new_value_label: z.string().nullable() })),
});

/** GET projects/get_next_project_code. */
export const nextProjectCodeAnswer = z.object({ next_project_code: z.string() });

/** POST projects/:id/notify_user: the notifications recorded (e-mail is not sent) and the toast's text. */
export const notifyUserAnswer = z.object({
  notified: z.number().int(),
  notifications: z.array(z.object({ id: z.number().int(), user_id: z.number().int() })),
  email_sent: z.boolean(),
  message: z.string(),
});
