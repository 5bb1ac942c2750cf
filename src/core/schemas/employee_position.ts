import { requiredText, z } from "./fields";

export const employeePositionSchema = z.object({ name: requiredText(120) });
export const employeePositionUpdateSchema = employeePositionSchema.partial();
