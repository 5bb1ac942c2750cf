/**
 * Field builders shared by every schema, with the product's Spanish messages. Forms (through
 * zodResolver) and routes parse with the same schemas, so a rule exists once.
 */
import { z } from "zod";
import { messages } from "../messages";

z.config(z.locales.es());

const emptyToNull = (v: unknown) => (v === "" || v === undefined || v === "null" ? null : v);

export const requiredText = (max: number) =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required })
    .max(max, { error: messages.tooLong(max) });

export const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z
      .string()
      .trim()
      .max(max, { error: messages.tooLong(max) })
      .nullable()
      .optional(),
  );

export const optionalEmail = () =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z.string().trim().max(254).email({ error: messages.invalidEmail }).nullable().optional(),
  );

export const requiredEmail = () => z.string({ error: messages.required }).trim().max(254).email({ error: messages.invalidEmail });

/** A reference to another record; '' and the string 'null' (SPEC §2, client group) mean none. */
export const optionalId = () =>
  z.preprocess(emptyToNull, z.coerce.number({ error: messages.invalidReference }).int().positive().nullable().optional());

export const requiredId = () =>
  z.coerce.number({ error: messages.required }).int({ error: messages.invalidReference }).positive({ error: messages.required });

export const flag = () => z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean().optional());

export const isoDate = () =>
  z
    .string({ error: messages.required })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.invalidDate })
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      error: messages.invalidDate,
    });

export const optionalIsoDate = () => z.preprocess(emptyToNull, isoDate().nullable().optional());

export const hours = () =>
  z.coerce.number({ error: messages.mustBeNumber }).min(0, { error: messages.mustBePositive }).max(100_000);

/**
 * Rails-style nested rows: an `id` to update, `_destroy` to remove (then only the id is needed),
 * neither to add.
 */
export const nestedRow = <T extends z.ZodRawShape>(shape: T) => {
  const full = z.object({ id: z.coerce.number().int().positive().optional(), _destroy: flag(), ...shape });
  const destroy = z.object({ id: z.coerce.number().int().positive(), _destroy: z.literal(true) });
  return z.unknown().transform((value, ctx) => {
    const row = value as Record<string, unknown> | null;
    const destroying = Boolean(row && typeof row === "object" && [true, "true", 1, "1"].includes(row._destroy as never));
    const result = destroying ? destroy.safeParse({ ...row, _destroy: true }) : full.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return result.data as z.infer<typeof full>;
  });
};

export { z };
