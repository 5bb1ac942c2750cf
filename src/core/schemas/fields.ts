/**
 * Field builders shared by every schema, with the product's Spanish messages. Forms (through
 * zodResolver) and routes parse with the same schemas, so a rule exists once.
 */
import { z } from "zod";
import { messages } from "../messages";
import { DATE_MAX, DATE_MIN, isDateInRange, isInstantInRange } from "../week";

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

export { DATE_MAX, DATE_MIN };

/** The one date schema: a real 'YYYY-MM-DD' between DATE_MIN and DATE_MAX (src/core/week.ts). */
export const isoDate = () =>
  z
    .string({ error: messages.required })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.invalidDate })
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      error: messages.invalidDate,
      abort: true,
    })
    .refine(isDateInRange, { error: messages.dateOutOfRange });

/** A real date (isoDate's rule) as a plain check, for parsers that are not zod schemas. */
export const isValidIsoDate = (v: string) => isoDate().safeParse(v).success;

/** An instant with its offset (ISO 8601), its date within DATE_MIN…DATE_MAX. */
export const isoDateTime = () =>
  z.iso
    .datetime({ offset: true, error: messages.invalidDate })
    .refine((v) => isInstantInRange(new Date(v)), { error: messages.dateOutOfRange });

/** An instant (a Date, an ISO string or epoch milliseconds) within DATE_MIN…DATE_MAX, as a Date. */
export const instant = () =>
  z.preprocess(
    (v) => (typeof v === "string" || typeof v === "number" ? new Date(v) : v),
    z
      .date({ error: messages.invalidDate })
      .refine((d) => !Number.isNaN(d.getTime()), { error: messages.invalidDate, abort: true })
      .refine(isInstantInRange, { error: messages.dateOutOfRange }),
  );

export const optionalIsoDate = () => z.preprocess(emptyToNull, isoDate().nullable().optional());

/**
 * The error of a number field that is not a number. Given as the schema's `error`, a plain message would
 * also replace its checks' own (a page of -1 would read «debe ser un número»); this one answers only the
 * type, and the checks keep their Spanish messages.
 */
export const notANumber = (issue: { code?: string }) => (issue.code === "invalid_type" ? messages.mustBeNumber : undefined);

export const hours = () => z.coerce.number({ error: notANumber }).min(0, { error: messages.mustBePositive }).max(100_000);

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
