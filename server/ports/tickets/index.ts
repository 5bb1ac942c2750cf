/**
 * The tickets port (see ./port.ts) and the adapter this installation runs: Azure DevOps when
 * AZURE_DEVOPS_ORG_URL is set (the token may come per user), else NoTickets.
 */
import { eq } from "drizzle-orm";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { projects, users } from "../../db/schema";
import { decryptSecret, secretKey } from "../../http/secrets";
import type { TicketsDirectory } from "./azure";
import { NoTickets, type TicketsPort } from "./port";

export type { TicketsDirectory } from "./azure";
export * from "./port";

/** The user's azure token (decrypted) and a project's name, read from SIA's database. */
export function ticketsDirectory(database: Database, key: Buffer): TicketsDirectory {
  return {
    async userToken(userId) {
      const [row] = await database.db.select({ token: users.azure_token }).from(users).where(eq(users.id, userId));
      return row?.token ? decryptSecret(row.token, key) : null;
    },
    async projectName(projectId) {
      const [row] = await database.db.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId));
      return row?.name ?? null;
    },
  };
}

/** The tickets service of this installation (created once per app; Azure's client imported only when set). */
export async function createTickets(config: Config, database: Database): Promise<TicketsPort> {
  if (config.AZURE_DEVOPS_ORG_URL) {
    const { AzureDevOpsTickets } = await import("./azure");
    return new AzureDevOpsTickets(
      { orgUrl: config.AZURE_DEVOPS_ORG_URL, pat: config.AZURE_DEVOPS_PAT, project: config.AZURE_DEVOPS_PROJECT },
      ticketsDirectory(database, secretKey(config)),
    );
  }
  return new NoTickets();
}
