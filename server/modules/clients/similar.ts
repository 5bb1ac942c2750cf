/**
 * Look-alike clients: another with the same name read as people read it (no case, accents or extra spaces:
 * sia_normal_name) or the same RFC. Not a refusal (two firms may share a name), a warning the person
 * confirms past with `confirm_similar`: a second «Cementos del Istmo» made by mistake splits its history.
 */
import { eq, or, type SQL, sql } from "drizzle-orm";
import { accessMessages } from "../../../src/core/messages";
import type { Tx } from "../../db/client";
import { clients } from "../../db/schema";
import { HttpError } from "../../http/errors";

export interface SimilarClient {
  id: number;
  name: string;
  client_code: string;
  rfc: string | null;
}

export async function similarClients(db: Tx, name: string, rfc: string | null | undefined): Promise<SimilarClient[]> {
  const conditions: SQL[] = [sql`sia_normal_name(${clients.name}) = sia_normal_name(${name})`];
  if (rfc) conditions.push(eq(clients.rfc, rfc));
  return db
    .select({ id: clients.id, name: clients.name, client_code: clients.client_code, rfc: clients.rfc })
    .from(clients)
    .where(or(...conditions))
    .orderBy(clients.id)
    .limit(5);
}

/**
 * A new client's check: unless confirmed, a look-alike answers 422 on `confirm_similar` naming them (the
 * form then offers the confirmation), with the records themselves under `similar_clients`.
 */
export async function warnSimilarClients(db: Tx, values: Record<string, unknown>) {
  const confirmed = values.confirm_similar === true;
  delete values.confirm_similar;
  if (confirmed || typeof values.name !== "string") return;
  const found = await similarClients(db, values.name, typeof values.rfc === "string" ? values.rfc : null);
  if (found.length === 0) return;
  const names = found.map((c) => (c.rfc ? `${c.name} (${c.client_code}, RFC ${c.rfc})` : `${c.name} (${c.client_code})`));
  throw new HttpError(422, "Validation failed", {
    errors: { confirm_similar: [accessMessages.similarClients(names)] },
    similar_clients: found,
  });
}
