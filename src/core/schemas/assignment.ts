import { messages } from "../messages";
import { businessToday, daysBetween } from "../week";
import { isoDate, requiredId, z } from "./fields";

const fields = {
  employee_id: requiredId(),
  client_id: requiredId(),
  product_catalog_id: requiredId(),
  start_on: isoDate(),
  end_on: isoDate(),
};

/** Create: every field, end on or after start (ISO dates compare as strings). */
export const assignmentSchema = z.object(fields).refine((v) => v.end_on >= v.start_on, {
  error: messages.endBeforeStart,
  path: ["end_on"],
});
export type AssignmentInput = z.infer<typeof assignmentSchema>;
/** Update: any subset; the date order is checked by the server against the stored record. */
export const assignmentUpdateSchema = z.object(fields).partial();

/** Days an assignment lasts, both ends included (SPEC §9). */
export function durationDays(startOn: string, endOn: string): number {
  return daysBetween(startOn, endOn) + 1;
}

/** A start or end date on or before today (in the firm's time zone) is already reached. */
export const dateReached = (date: string | null | undefined, today = businessToday()) =>
  Boolean(date) && String(date).slice(0, 10) <= today;
