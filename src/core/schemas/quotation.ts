import { QUOTATION_EVENT_DEFAULT_MINUTES } from "../constants";
import { messages, pipelineMessages } from "../messages";
import { QUOTATION_EVENT_NAMES } from "../quotationMachine";
import { clientFieldsSchema } from "./client";
import { isoDateTime, notANumber, optionalId, optionalIsoDate, optionalText, requiredId, requiredText, z } from "./fields";

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

/** A quotation's calendar event (default one hour); every attendee must be an e-mail. */
export const quotationEventSchema = z.object({
  starts_at: isoDateTime(),
  duration_minutes: z.coerce
    .number({ error: notANumber })
    .int({ error: messages.mustBeWholeNumber })
    .min(5, { error: messages.invalidValue })
    .max(24 * 60, { error: messages.invalidValue })
    .default(QUOTATION_EVENT_DEFAULT_MINUTES),
  summary: optionalText(200),
  description: optionalText(2000),
  attendees: z
    .array(z.string(), { error: pipelineMessages.invalidAttendees })
    .max(50, { error: messages.invalidValue })
    .default([])
    .transform((list) => list.map((e) => e.trim()).filter((e) => e !== ""))
    .refine((list) => list.every((e) => e.length <= 254 && EMAIL.test(e)), { error: pipelineMessages.invalidAttendees }),
});

export const quotationSchema = z.object({
  contact_name: requiredText(200),
  prospect_id: requiredId(),
  product_catalog_id: requiredId(),
  audit_comment: optionalText(2000),
  event: quotationEventSchema.nullable().optional(),
});
export const quotationUpdateSchema = quotationSchema.partial();
export type QuotationInput = z.infer<typeof quotationSchema>;

/** POST quotations/:id/aasm_transition: the event with its comment; approve_quote may adjust client and project. */
export const quotationTransitionSchema = z.object({
  quotation: z.object({
    event: z.enum(QUOTATION_EVENT_NAMES as [string, ...string[]], { error: messages.invalidValue }),
    audit_comment: z
      .string({ error: pipelineMessages.commentRequired })
      .trim()
      .min(1, { error: pipelineMessages.commentRequired })
      .max(2000, { error: messages.tooLong(2000) }),
  }),
  client_hash: clientFieldsSchema.partial().optional(),
  project_hash: z
    .object({
      name: optionalText(250),
      project_date: optionalIsoDate(),
      eta: optionalIsoDate(),
      rape_id: optionalId(),
      pm_id: optionalId(),
    })
    .optional(),
});
export type QuotationTransitionInput = z.infer<typeof quotationTransitionSchema>;

/**
 * The quotation form: `with_event` schedules the calendar event (then validated as the API takes it);
 * unticked, the event is sent as null (an existing one is removed from the calendar).
 */
export const quotationFormSchema = z.preprocess(
  (value) =>
    value && typeof value === "object" && !(value as { with_event?: unknown }).with_event
      ? { ...(value as object), event: null }
      : value,
  quotationSchema.extend({ with_event: z.boolean().optional() }),
);

/** GET quotations/quotation_states: each state by its name. */
export const quotationStatesAnswer = z.object({ quotation_states: z.array(z.object({ id: z.string(), name: z.string() })) });
