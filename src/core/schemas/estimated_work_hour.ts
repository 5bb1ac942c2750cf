import { messages } from "../messages";
import { requiredId, z } from "./fields";

const shape = {
  project_id: requiredId(),
  /** SPEC §5: hours and position are both needed ('Rellene todos los campos'). */
  estimated_hours: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce
      .number({ error: (issue) => (issue.input === undefined ? messages.fillAllFields : messages.mustBeNumber) })
      .gt(0, { error: messages.mustBeGreaterThanZero })
      .max(100_000),
  ),
  employee_position_id: z.preprocess(
    (v) => (v === "" || v === null || v === "null" || v === 0 || v === "0" ? undefined : v),
    z.coerce
      .number({ error: (issue) => (issue.input === undefined ? messages.fillAllFields : messages.invalidReference) })
      .int({ error: messages.invalidReference })
      .positive({ error: messages.invalidReference }),
  ),
};

/** Estimated hours of one employee position in a project (SPEC §3). */
export const estimatedWorkHourSchema = z.object(shape);
export type EstimatedWorkHourInput = z.infer<typeof estimatedWorkHourSchema>;
export const estimatedWorkHourUpdateSchema = z.object(shape).partial();
