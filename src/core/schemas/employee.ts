import { DEFAULT_EMPLOYEE_CODE } from "../constants";
import { messages } from "../messages";
import { flag, notANumber, optionalId, optionalIsoDate, requiredText, z } from "./fields";

export const employeeSchema = z.object({
  name: requiredText(200),
  employee_code: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? DEFAULT_EMPLOYEE_CODE : typeof v === "number" ? String(v) : v),
    z
      .string()
      .trim()
      .min(1, { error: messages.required })
      .max(40, { error: messages.tooLong(40) }),
  ),
  user_id: optionalId(),
  is_rape: flag(),
  is_admin_group: flag(),
  is_active: flag(),
  assignable: flag(),
  workspace_id: optionalId(),
  employee_position_id: optionalId(),
  /** Start date: weeks before it are not theirs to close (the team dashboard's «Semanas sin cerrar»). */
  start_on: optionalIsoDate(),
  /** Hours of their working day (part-time staff fewer): the reminders and the capacity screen expect them. */
  daily_hours: z.preprocess(
    // Omitted or empty: the default (8 h) on a new employee, unchanged on an edit. Typed with a decimal
    // comma, as Spanish keyboards do: «7,5».
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? v.trim().replace(",", ".") : v),
    z.coerce
      .number({ error: notANumber })
      .min(0, { error: messages.dailyHoursRange })
      .max(24, { error: messages.dailyHoursRange })
      .multipleOf(0.25, { error: messages.dailyHoursQuarter })
      .optional(),
  ),
});
export type EmployeeInput = z.infer<typeof employeeSchema>;
export const employeeUpdateSchema = employeeSchema.partial();
