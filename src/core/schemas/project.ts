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
export interface ProjectStage {
  id: number;
  event: string;
  event_label: string;
  from_state: string | null;
  from_state_label: string | null;
  to_state: string;
  to_state_label: string;
  comment: string | null;
  stage_date: string | null;
  eta: string | null;
  responsible_id: number | null;
  responsible_name: string | null;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
}

/** One audited change of a project, invoice or quotation (GET …/:id/audit_logs). */
export interface AuditLog {
  id: number;
  field: string;
  old_value: string | null;
  new_value: string | null;
  comment: string | null;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
}
