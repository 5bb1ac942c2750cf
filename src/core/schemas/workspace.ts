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
