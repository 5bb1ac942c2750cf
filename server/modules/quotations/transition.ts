/**
 * POST /api/v1/quotations/:id/aasm_transition {quotation: {event, audit_comment}, client_hash?, project_hash?}
 *
 * One transaction per transition, the quotation row locked: the event must be permitted from the
 * current state (src/core/quotationMachine.ts), the comment is required and stored (quotations.audit_comment
 * and an audit_logs row). Side effects:
 *   approve_demo      the prospect's "Cotizaciones" folder (and its CV_ folder, if it had none)
 *   request_contract  Plantillas/contrato_pld.docx copied into the prospect's "Administración" folder
 *   approve_quote     client (next client code) + project (type 6, the quotation's product, next project
 *                     code) + both folder structures.
 * Drive work happens inside the transaction, after the database writes, and is undone if anything
 * fails (commit included): a failure leaves no client, no project and no folders behind. The prospect
 * and its CV_ folder stay as they are (they are the quotation's history; "convert to client" is the
 * other way a prospect becomes a client).
 */
import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { CLIENT_FOLDERS, PROJECT_FOLDERS, PROSPECT_FOLDER_PREFIX, QUOTATION_PROJECT_TYPE_ID } from "../../../src/core/constants";
import { pipelineMessages } from "../../../src/core/messages";
import { nextState } from "../../../src/core/quotationMachine";
import { quotationTransitionSchema } from "../../../src/core/schemas/quotation";
import { QUOTATION_STATES, type QuotationState } from "../../../src/core/states";
import { businessToday } from "../../../src/core/week";
import type { Db, Tx } from "../../db/client";
import {
  audit_logs,
  client_product_catalogs,
  clients,
  products,
  project_types,
  projects,
  prospects,
  quotations,
} from "../../db/schema";
import { authorize, currentUser } from "../../http/auth";
import { notFound, ValidationError, zodFieldErrors } from "../../http/errors";
import { doc } from "../../http/openapi";
import { expectedVersion, idOf, ResourceService, staleVersion, withValidation } from "../../http/resource";
import { testPause } from "../../http/testPause";
import { TEMPLATES_DIR } from "../../paths";
import { type DocumentsPort, type DriveWork, findFolder, listAll, safeFolderName } from "../../ports/documents";
import { nextClientCode } from "../clients/resource";
import { driveFailure, resolveDriveFolder, withDriveWork } from "../drive/service";

export const QUOTATIONS_FOLDER = "Cotizaciones";
export const TEMPLATES_FOLDER = "Plantillas";
export const CONTRACT_TEMPLATE = "contrato_pld.docx";
/** The placeholder copied into the drive's Plantillas folder on first use (replace it there). */
export const CONTRACT_TEMPLATE_SOURCE = path.join(TEMPLATES_DIR, CONTRACT_TEMPLATE);

/**
 * The next project code, PRY-0001 style: one more than the largest PRY-<n> so far. (The projects
 * module of the pipeline issue exposes it as GET projects/get_next_project_code.)
 */
export async function nextProjectCode(db: Tx): Promise<string> {
  const [row] = await db
    .select({ max: sql<number>`coalesce(max(substring(${projects.project_code} from 5)::bigint), 0)::bigint` })
    .from(projects)
    .where(sql`${projects.project_code} ~ '^PRY-[0-9]{1,12}$'`);
  return `PRY-${String(Number(row?.max ?? 0) + 1).padStart(4, "0")}`;
}

/** The contract template in the drive (Plantillas/contrato_pld.docx), put there on first use. */
export async function contractTemplate(port: DocumentsPort) {
  const folder =
    (await findFolder(port, port.rootId, TEMPLATES_FOLDER)) ?? (await port.createFolder(port.rootId, TEMPLATES_FOLDER));
  const found = (await listAll(port, folder.id)).find((item) => item.kind === "file" && item.name === CONTRACT_TEMPLATE);
  return found ?? port.upload(folder.id, CONTRACT_TEMPLATE, fs.readFileSync(CONTRACT_TEMPLATE_SOURCE));
}

type Prospect = typeof prospects.$inferSelect;

/** The prospect's CV_ folder (created in the drive's root, and stored, when it has none). */
async function prospectFolder(tx: Tx, work: DriveWork, prospect: Prospect) {
  const port = work.port;
  const existing = prospect.drive_root_id ? await port.info(prospect.drive_root_id) : null;
  if (existing?.kind === "folder") return existing;
  const folder = await work.createFolder(port.rootId, safeFolderName(`${PROSPECT_FOLDER_PREFIX}${prospect.name}`), true);
  await tx.update(prospects).set({ drive_root_id: folder.id, drive_root_url: folder.url }).where(eq(prospects.id, prospect.id));
  return folder;
}

export function transitionRoute(app: FastifyInstance) {
  app.post(
    "/quotations/:id/aasm_transition",
    {
      schema: doc({
        tags: ["quotations"],
        summary: "Cambiar el estado de la cotización",
        body: quotationTransitionSchema,
        version: "optional",
      }),
    },
    async (request) => {
      authorize(request, "quotations", "transition");
      const user = currentUser(request);
      const id = idOf(request);
      const expected = expectedVersion(request, request.body, "quotation");
      const parsed = quotationTransitionSchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        const errors = zodFieldErrors(parsed.error);
        // The fields of the dialog answer by their own name (audit_comment, event).
        for (const key of Object.keys(errors)) {
          if (key.startsWith("quotation.")) {
            errors[key.slice("quotation.".length)] = errors[key];
            delete errors[key];
          }
        }
        throw new ValidationError(errors);
      }
      const { quotation: input, client_hash: clientHash = {}, project_hash: projectHash = {} } = parsed.data;
      const db = app.db.db as Db;
      const port = app.documents;
      const event = input.event;

      // The client's folder, when the dialog picked one, is checked before anything is written.
      const clientValues: Record<string, unknown> = { ...clientHash };
      const pickedFolder =
        event === "approve_quote" && (clientValues.drive_root_id || clientValues.drive_root_url)
          ? await resolveDriveFolder(port, clientValues)
          : null;

      await withDriveWork(app, request, (work) =>
        withValidation(() =>
          db.transaction(async (tx) => {
            const [quotation] = await tx.select().from(quotations).where(eq(quotations.id, id)).for("update");
            if (!quotation) throw notFound();
            // Taken from a screen another save has since changed (when the client says what it read): 409.
            if (expected !== undefined && quotation.lock_version !== expected) throw staleVersion("quotation");
            const to = nextState(quotation.state, event);
            if (!to) {
              const label = QUOTATION_STATES[quotation.state as QuotationState] ?? quotation.state;
              throw ValidationError.field("invalid_transition", pipelineMessages.invalidTransition(event, label));
            }
            const [prospect] = quotation.prospect_id
              ? await tx.select().from(prospects).where(eq(prospects.id, quotation.prospect_id))
              : [];
            const needsProspect = event === "approve_demo" || event === "request_contract" || event === "approve_quote";
            if (needsProspect && !prospect) throw ValidationError.field("prospect", pipelineMessages.quotationWithoutProspect);
            const changes: Partial<typeof quotations.$inferInsert> = { state: to, audit_comment: input.audit_comment };

            if (event === "approve_demo") {
              try {
                const folder = await prospectFolder(tx, work, prospect);
                await work.ensureStructure(folder.id, [QUOTATIONS_FOLDER]);
              } catch (error) {
                driveFailure(error);
              }
            }

            if (event === "request_contract") {
              try {
                const folder = await prospectFolder(tx, work, prospect);
                const { folders } = await work.ensureStructure(folder.id, ["Administración"]);
                const template = await contractTemplate(port);
                const taken = new Set((await listAll(port, folders.Administración.id)).map((i) => i.name));
                let name = `Contrato PLD - ${safeFolderName(prospect.name)}.docx`;
                for (let n = 2; taken.has(name); n++) name = `Contrato PLD - ${safeFolderName(prospect.name)} (${n}).docx`;
                await work.copy(template.id, folders.Administración.id, name);
              } catch (error) {
                if (error instanceof ValidationError) throw error;
                request.log.warn({ err: error }, "contract template not copied");
                throw ValidationError.base(pipelineMessages.contractCopyFailed);
              }
            }

            if (event === "approve_quote") {
              const made = await approveQuote(tx, work, {
                quotation,
                prospect,
                userId: user.id,
                clientValues,
                pickedFolder: pickedFolder?.id ?? null,
                projectHash,
                comment: input.audit_comment,
              });
              changes.client_id = made.clientId;
              changes.project_id = made.projectId;
            }

            await tx.update(quotations).set(changes).where(eq(quotations.id, id));
            await tx.insert(audit_logs).values({
              auditable_type: "Quotation",
              auditable_id: id,
              field: "state",
              old_value: quotation.state,
              new_value: to,
              comment: input.audit_comment,
              user_id: user.id,
            });
          }),
        ),
      );
      const service = new ResourceService((await import("./resource")).quotationsResource);
      return { quotation: await service.show(service.context(app, request, "show"), id) };
    },
  );
}

async function approveQuote(
  tx: Tx,
  work: DriveWork,
  params: {
    quotation: typeof quotations.$inferSelect;
    prospect: Prospect;
    userId: number;
    clientValues: Record<string, unknown>;
    pickedFolder: string | null;
    projectHash: {
      name?: string | null;
      project_date?: string | null;
      eta?: string | null;
      rape_id?: number | null;
      pm_id?: number | null;
    };
    comment: string;
  },
) {
  const { quotation, prospect, clientValues, projectHash } = params;
  const [type] = await tx
    .select({ id: project_types.id })
    .from(project_types)
    .where(eq(project_types.id, QUOTATION_PROJECT_TYPE_ID));
  if (!type) throw ValidationError.base(pipelineMessages.projectTypeMissing(QUOTATION_PROJECT_TYPE_ID));
  const [product] = await tx.select().from(products).where(eq(products.id, quotation.product_catalog_id));

  // 1. The database: client, its product, project.
  const { client_product_catalogs_attributes: _ignored, drive_root_id: _id, drive_root_url: _url, ...fields } = clientValues;
  const name = (fields.name as string | undefined) ?? prospect.name;
  const clientCode = fields.client_code && fields.client_code !== "0" ? String(fields.client_code) : await nextClientCode(tx);
  const [client] = await tx
    .insert(clients)
    .values({
      ...(fields as Partial<typeof clients.$inferInsert>),
      name,
      client_code: clientCode,
      was_prospect: true,
      converted_to_prospect_by: params.userId,
    })
    .returning();
  await tx.insert(client_product_catalogs).values({ client_id: client.id, product_catalog_id: quotation.product_catalog_id });
  const projectCode = await nextProjectCode(tx);
  const projectName = projectHash.name ?? `${product?.name ?? "Proyecto"} - ${name}`;
  const [project] = await tx
    .insert(projects)
    .values({
      project_code: projectCode,
      name: projectName,
      client_id: client.id,
      project_type_catalog_id: QUOTATION_PROJECT_TYPE_ID,
      product_catalog_id: quotation.product_catalog_id,
      project_date: projectHash.project_date ?? businessToday(),
      eta: projectHash.eta ?? null,
      rape_id: projectHash.rape_id ?? null,
      pm_id: projectHash.pm_id ?? null,
      audit_comment: params.comment,
    })
    .returning();

  await testPause("quotation_approval");

  // 2. The drive, last: the client's folder (picked, or a new one in the root) with its structure, and the
  //    project's folder inside Proyectos with the 9 numbered folders. Undone by the caller on failure.
  try {
    const port = work.port;
    const clientFolder = params.pickedFolder
      ? await port.info(params.pickedFolder)
      : await work.createFolder(port.rootId, safeFolderName(name), true);
    if (!clientFolder) throw ValidationError.field("drive_root_id", pipelineMessages.folderNotFound);
    const { folders } = await work.ensureStructure(clientFolder.id, CLIENT_FOLDERS);
    const projectFolder = await work.createFolder(folders.Proyectos.id, safeFolderName(`${projectCode} ${projectName}`), true);
    await work.ensureStructure(projectFolder.id, PROJECT_FOLDERS);
    await tx
      .update(clients)
      .set({ drive_root_id: clientFolder.id, drive_root_url: clientFolder.url })
      .where(eq(clients.id, client.id));
    await tx
      .update(projects)
      .set({ drive_root_id: projectFolder.id, drive_root_url: projectFolder.url })
      .where(and(eq(projects.id, project.id)));
  } catch (error) {
    driveFailure(error);
  }
  return { clientId: client.id, projectId: project.id };
}
