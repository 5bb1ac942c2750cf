import { ROLES } from "../constants";
import { accessMessages, messages } from "../messages";
import { flag, optionalText, requiredEmail, requiredText, z } from "./fields";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** '' (an untouched password field of the edit form) means "no change". */
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

const password = z
  .string({ error: messages.passwordRequired })
  .min(PASSWORD_MIN, { error: messages.tooShort(PASSWORD_MIN) })
  .max(PASSWORD_MAX, { error: messages.tooLong(PASSWORD_MAX) });

const userFields = {
  name: requiredText(200),
  email: requiredEmail().transform((v) => v.toLowerCase()),
  administrator_role: flag(),
  operator_role: flag(),
  finance_role: flag(),
  can_chat: flag(),
  azure_token: optionalText(4000),
};

const confirmation = <T extends { password?: string; password_confirmation?: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.password !== undefined && value.password !== value.password_confirmation) {
    ctx.addIssue({ code: "custom", path: ["password_confirmation"], message: messages.passwordMismatch });
  }
};

type RoleFlags = Partial<Record<(typeof ROLES)[number], boolean | null | undefined>>;
/**
 * One role at least: a user without one signs in to screens that refuse every call. A new user needs one
 * set; an update that sends all three flags false is refused here (the form), and the service checks what
 * a partial update leaves with the stored flags.
 */
const roleIssue = (ctx: z.RefinementCtx) =>
  ctx.addIssue({ code: "custom", path: ["administrator_role"], message: accessMessages.roleRequired });
/** Whether the user holds at least one of the roles (the screens show a roleless user a notice instead). */
export const hasSomeRole = (value: RoleFlags) => ROLES.some((role) => value[role] === true);
const someRoleOnCreate = (value: RoleFlags, ctx: z.RefinementCtx) => {
  if (!hasSomeRole(value)) roleIssue(ctx);
};
const someRoleOnUpdate = (value: RoleFlags, ctx: z.RefinementCtx) => {
  if (ROLES.every((role) => value[role] === false)) roleIssue(ctx);
};

export const userSchema = z
  .object({
    ...userFields,
    password,
    password_confirmation: z.string({ error: messages.passwordMismatch }).optional(),
  })
  .superRefine(confirmation)
  .superRefine(someRoleOnCreate);
export type UserInput = z.infer<typeof userSchema>;

/** True removes the saved Azure DevOps token (the token itself is write-only: empty keeps it). */
const clearAzureToken = z.boolean({ error: messages.invalidValue }).optional();

export const userUpdateSchema = z
  .object(userFields)
  .partial()
  .extend({
    clear_azure_token: clearAzureToken,
    password: z.preprocess(blankToUndefined, password.optional()),
    password_confirmation: z.preprocess(blankToUndefined, z.string().optional()),
  })
  .superRefine(confirmation)
  .superRefine(someRoleOnUpdate);
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/** List filter `by_role`: one of the role flags; absent means Todos. */
export const userRoleFilter = z.preprocess(
  (v) => (typeof v === "string" ? v.replace(/^"|"$/g, "") : v),
  z.enum(ROLES, { error: messages.invalidValue }),
);

export const cloudTokenSchema = z.object({
  token: requiredText(8000),
  google_id: optionalText(200),
});

/** The own-profile form of a non-administrator: the only field they may change (SPEC §6). */
export const userAzureTokenSchema = z.object({ azure_token: userFields.azure_token, clear_azure_token: clearAzureToken });
