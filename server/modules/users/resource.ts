import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { ROLES } from "../../../src/core/constants";
import { cloudTokenSchema, userRoleFilter, userSchema, userUpdateSchema } from "../../../src/core/schemas/user";
import { employees, users } from "../../db/schema";
import { currentUser } from "../../http/auth";
import { searchOf, sortableOf } from "../../http/columns";
import { doc } from "../../http/openapi";
import { answered, recordSchema } from "../../http/records";
import { declareResource, filter } from "../../http/resource";
import { encryptSecret, secretKey } from "../../http/secrets";
import { outer } from "../../http/sql";
import { afterUserDelete, afterUserWrite, prepareUserWrite, storeCloudToken, userEmployeeGuard } from "./service";

/** The user's employee as {id, name, employee_code, is_active, workspace_id} or null, in the same query. */
const employeeOf = sql`(select json_build_object('id', ${employees.id}, 'name', ${employees.name}, 'employee_code', ${employees.employee_code}, 'is_active', ${employees.is_active}, 'workspace_id', ${employees.workspace_id}) from ${employees} where ${employees.user_id} = ${outer(users.id)})`;

export const usersResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    employee: answered.object({
      id: z.number().int(),
      name: z.string(),
      employee_code: z.string().nullable(),
      is_active: z.boolean(),
      workspace_id: z.number().int().nullable(),
    }),
    has_cloud_token: answered.flag,
    has_azure_token: answered.flag,
  },
  name: "users",
  singular: "user",
  table: users,
  createSchema: userSchema,
  updateSchema: userUpdateSchema,
  search: searchOf("users", { name: users.name, email: users.email }),
  sortable: sortableOf("users", {
    id: users.id,
    name: users.name,
    email: users.email,
    administrator_role: users.administrator_role,
    operator_role: users.operator_role,
    finance_role: users.finance_role,
    created_at: users.created_at,
  }),
  defaultSort: { column: "name", order: "asc" },
  filters: {
    by_role: filter.custom(userRoleFilter, (role) => eq(users[role as (typeof ROLES)[number]], true)),
  },
  computed: {
    employee: employeeOf.as("employee"),
    has_cloud_token: sql<boolean>`(${users.cloud_token_encrypted} is not null)`.as("has_cloud_token"),
    has_azure_token: sql<boolean>`(${users.azure_token} is not null)`.as("has_azure_token"),
  },
  // Secrets are write-only: no answer carries them, encrypted or not.
  hidden: ["password_digest", "cloud_token_encrypted", "azure_token", "password_changed_at"],
  own: (user) => eq(users.id, user.id),
  deleteGuards: [userEmployeeGuard],
  beforeWrite: prepareUserWrite,
  afterWrite: afterUserWrite,
  afterDelete: afterUserDelete,
  routes(app, service) {
    app.post(
      "/users/save_cloud_token",
      {
        config: { signedIn: true },
        schema: doc({
          tags: ["users"],
          summary: "Guardar el token del calendario del usuario",
          body: cloudTokenSchema,
          wrap: "user",
          response: { 200: z.object({ user: recordSchema(service.def) }) },
        }),
      },
      async (request) => {
        const user = currentUser(request);
        const input = (request.body as { user: z.output<typeof cloudTokenSchema> }).user;
        const encrypted = encryptSecret(input.token, secretKey(app.config));
        await storeCloudToken(app.db.db, user.id, encrypted, input.google_id);
        const ctx = { app, request, user, grant: "own" as const, db: app.db.db };
        return { user: await service.show(ctx, user.id) };
      },
    );
  },
});
