import { messages } from "../messages";
import { flag, nestedRow, requiredId, requiredText, z } from "./fields";

export const bossWorkspaceSchema = nestedRow({ employee_id: requiredId() });

export const workspaceSchema = z.object({
  name: requiredText(120),
  is_notifiable: flag(),
  bosses_workspaces_attributes: z
    .array(bossWorkspaceSchema)
    .max(200)
    .optional()
    .refine(
      (rows) => {
        const ids = (rows ?? []).filter((r) => !r._destroy).map((r) => r.employee_id);
        return new Set(ids).size === ids.length;
      },
      { error: messages.duplicateBoss },
    ),
});
export type WorkspaceInput = z.infer<typeof workspaceSchema>;
export const workspaceUpdateSchema = workspaceSchema.partial();

/** The workspace form: bosses edited as `bosses_workspaces` rows, sent as `bosses_workspaces_attributes`. */
export const workspaceFormSchema = workspaceSchema.omit({ bosses_workspaces_attributes: true }).extend({
  bosses_workspaces: z
    .array(z.object({ id: z.coerce.number().int().positive().optional(), employee_id: requiredId() }).passthrough())
    .max(200)
    .optional()
    .refine(
      (rows) => {
        const ids = (rows ?? []).map((r) => r.employee_id);
        return new Set(ids).size === ids.length;
      },
      { error: messages.duplicateBoss },
    ),
});
