import { requiredText, z } from "./fields";

/** Client group (SPEC §3): a unique name; its clients are read-only here (set on each client). */
export const clientGroupSchema = z.object({ name: requiredText(160) });
export type ClientGroupInput = z.infer<typeof clientGroupSchema>;
export const clientGroupUpdateSchema = clientGroupSchema.partial();
