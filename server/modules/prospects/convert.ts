/**
 * POST /api/v1/prospects/:id/convert_to_client {client: {drive_root_id | drive_root_url, …client fields}}
 * (SPEC §4 "Prospect to client"). In order:
 *   1. the chosen folder is required ('No se ha seleccionado una carpeta') and must be this drive's;
 *   2. one transaction, the prospect locked: a prospect already won (an approved quotation made its client)
 *      is refused; the client (was_prospect, next client code, who converted it), its products, the
 *      prospect's activities and quotations pointed at the client (open quotations go on from there: their
 *      next steps use the client and its folder), the prospect deleted; inside it,
 *      last, the drive: the client structure in the chosen folder and the prospect folder's content moved
 *      into it. Any failure rolls the database back and undoes the drive steps (moves go back);
 *   3. after the commit, the emptied prospect folder is removed; if that fails the client stays and the
 *      answer carries the warning 'El folder anterior no se pudo eliminar del drive.'.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { CLIENT_FOLDERS } from "../../../src/core/constants";
import { pipelineMessages } from "../../../src/core/messages";
import { clientFieldsSchema } from "../../../src/core/schemas/client";
import type { Db } from "../../db/client";
import { activities, client_product_catalogs, clients, prospects, quotations } from "../../db/schema";
import { currentUser, requires } from "../../http/auth";
import { notFound, parse, ValidationError } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { recordSchema } from "../../http/records";
import { idOf, ResourceService, withValidation } from "../../http/resource";
import type { DocumentsPort } from "../../ports/documents";
import { clientsResource, nextClientCode, warnSimilarClients } from "../clients";
import { assertFolderFree, driveFailure, resolveDriveFolder, withDriveWork } from "../drive";

/** Is `id` the folder `ancestorId` or inside it? */
export async function isWithin(port: DocumentsPort, id: string, ancestorId: string): Promise<boolean> {
  let current: string | null = id;
  for (let depth = 0; current !== null && depth < 100; depth++) {
    if (current === ancestorId) return true;
    current = (await port.info(current))?.parentId ?? null;
  }
  return false;
}

export function convertToClientRoute(app: FastifyInstance) {
  const clientService = new ResourceService(clientsResource);
  app.post(
    "/prospects/:id/convert_to_client",
    {
      config: requires("prospects", "transition"),
      schema: doc({
        tags: ["prospects"],
        summary: "Convertir el prospecto en cliente",
        params: idParams,
        body: clientFieldsSchema,
        wrap: "client",
        // A won prospect is said first, whatever else the request lacks.
        bodyReadByHandler: true,
        response: {
          201: z.object({
            client: recordSchema(clientsResource),
            warning: z.string().optional().describe("El folder anterior no se pudo eliminar del drive"),
          }),
        },
      }),
    },
    async (request, reply) => {
      const ctx = clientService.context(app, request, "create");
      const user = currentUser(request);
      const id = idOf(request);
      const db = app.db.db as Db;
      const [prospect] = await db.select().from(prospects).where(eq(prospects.id, id)).limit(1);
      if (!prospect) throw notFound();

      // A won prospect is its client already: said first, whatever else the request lacks.
      const [won] = await db.select({ name: clients.name }).from(clients).where(eq(clients.prospect_id, id));
      if (won) throw ValidationError.base(pipelineMessages.prospectAlreadyClient(prospect.name, won.name));
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const clientInput = parse(clientFieldsSchema, raw.client && typeof raw.client === "object" ? raw.client : raw);
      const values: Record<string, unknown> = { ...clientInput };
      // A prospect named like a client may be that client: said before any folder is touched.
      await warnSimilarClients(db, values);
      const port = app.documents;
      const target = await resolveDriveFolder(port, values, { requiredMessage: pipelineMessages.folderNotSelected });
      if (!target) throw ValidationError.field("drive_root_id", pipelineMessages.folderNotSelected);
      // One folder, one record (decision 027): not another record's folder, nor one holding or inside one.
      await assertFolderFree(db, port, target, { kind: "client" }, { ignore: [{ kind: "prospect", id }] });
      const oldFolder = prospect.drive_root_id ? await port.info(prospect.drive_root_id) : null;
      const moveOld = oldFolder?.kind === "folder" && oldFolder.id !== target.id;
      if (moveOld && oldFolder && (await isWithin(port, target.id, oldFolder.id))) {
        // The prospect's folder is about to be removed: the client's cannot live inside it.
        throw ValidationError.field("drive_root_id", pipelineMessages.folderInsideProspect);
      }

      const clientId = await withDriveWork(app, request, (work) =>
        withValidation(() =>
          db.transaction(async (tx) => {
            // Its quotations, then the prospect, locked in the order a transition takes them (quotation, then
            // prospect): an approval running now waits, or has already won it; no deadlock between the two.
            await tx
              .select({ id: quotations.id })
              .from(quotations)
              .where(eq(quotations.prospect_id, id))
              .orderBy(quotations.id)
              .for("update");
            const [locked] = await tx.select().from(prospects).where(eq(prospects.id, id)).for("update");
            if (!locked) throw notFound();
            const [won] = await tx.select({ name: clients.name }).from(clients).where(eq(clients.prospect_id, id));
            if (won) throw ValidationError.base(pipelineMessages.prospectAlreadyClient(locked.name, won.name));
            const { client_product_catalogs_attributes: products, ...fields } = values;
            if (fields.client_code === undefined || fields.client_code === "0") fields.client_code = await nextClientCode(tx);
            const [client] = await tx
              .insert(clients)
              .values({ ...(fields as typeof clients.$inferInsert), was_prospect: true, converted_to_prospect_by: user.id })
              .returning({ id: clients.id });
            for (const row of (products as Array<Record<string, unknown>> | undefined) ?? []) {
              if (row._destroy) continue;
              await tx.insert(client_product_catalogs).values({
                client_id: client.id,
                product_catalog_id: row.product_catalog_id as number,
                annual_support_hours: (row.annual_support_hours as number) ?? 0,
              });
            }
            await tx
              .update(activities)
              .set({ ownerable_type: "Client", ownerable_id: client.id })
              .where(and(eq(activities.ownerable_type, "Prospect"), eq(activities.ownerable_id, id)));
            await tx.update(quotations).set({ client_id: client.id }).where(eq(quotations.prospect_id, id));
            await tx.delete(prospects).where(eq(prospects.id, id));
            try {
              await work.ensureStructure(target.id, CLIENT_FOLDERS);
              if (moveOld && oldFolder) await work.moveContent(oldFolder.id, target.id);
            } catch (error) {
              driveFailure(error);
            }
            return client.id;
          }),
        ),
      );

      let warning: string | undefined;
      if (moveOld && oldFolder) {
        try {
          await port.delete(oldFolder.id);
        } catch (error) {
          request.log.warn({ err: error, folder: oldFolder.id }, "prospect folder not removed");
          warning = pipelineMessages.oldFolderNotRemoved;
        }
      }
      reply.status(201);
      return { client: await clientService.show({ ...ctx, grant: "all" }, clientId), ...(warning ? { warning } : {}) };
    },
  );
}
