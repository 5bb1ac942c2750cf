import { messages } from "../messages";
import { notANumber, requiredId, z } from "./fields";

/** SPEC §5: hours and position are both needed; a missing one answers 'Rellene todos los campos'. */
const filled = <T extends z.ZodType>(inner: T) =>
  z.preprocess(
    (v) => {
      if (typeof v !== "string") return v ?? undefined;
      // Typed or pasted with the typographic minus (−5) it is still a negative number, and is refused as one.
      const text = v.trim().replace(/\u2212/g, "-");
      return text === "" || text === "null" ? undefined : text;
    },
    z
      .unknown()
      .refine((v): boolean => v !== undefined, { error: messages.fillAllFields })
      .pipe(inner),
  );

const shape = {
  project_id: requiredId(),
  estimated_hours: filled(
    z.coerce
      .number({ error: notANumber })
      .gt(0, { error: messages.mustBeGreaterThanZero })
      .max(100_000, { error: messages.invalidValue }),
  ),
  employee_position_id: filled(
    z.coerce
      .number({ error: messages.invalidReference })
      .int({ error: messages.invalidReference })
      .positive({ error: messages.invalidReference }),
  ),
};

/** Estimated hours of one employee position in a project (SPEC §3). */
export const estimatedWorkHourSchema = z.object(shape);
export type EstimatedWorkHourInput = z.infer<typeof estimatedWorkHourSchema>;
export const estimatedWorkHourUpdateSchema = z.object(shape).partial();
