/**
 * POST /api/v1/quotations/:id/aasm_transition {quotation: {event, audit_comment}, client_hash?, project_hash?}
 *
 * One transaction per transition, the quotation row locked, then its party (the prospect, or the client it
 * became — see quotationParty): the event must be permitted from the current state
 * (src/core/quotationMachine.ts), the comment is required and stored (quotations.audit_comment and an
 * audit_logs row, the quotation's history). Side effects, in the party's folder (a client's own, or the
 * prospect's CV_ folder):
 *   approve_demo      its "Cotizaciones" folder (and the folder itself, if it had none)
 *   request_contract  Plantillas/contrato_pld.docx copied into its "Administración" folder
 *   approve_quote     the client — the existing one, or a new one (next client code) linked to the prospect,
 *                     which receives the prospect's documents — and a new project (type 6, the quotation's
 *                     product, next project code), with their folders.
 * Drive work happens inside the transaction, after the database writes, and is undone if anything
 * fails (commit included): a failure leaves no client, no project and no folders behind.
 */
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  CLIENT_FOLDERS,
  PROJECT_FOLDERS,
  PROSPECT_FOLDER_PREFIX,
  QUOTATION_PROJECT_TYPE_ID,
  TEMPLATES_FOLDER,
} from "../../../src/core/constants";
import { messages, pipelineMessages } from "../../../src/core/messages";
import { nextState, QUOTATION_EVENTS, type QuotationEvent } from "../../../src/core/quotationMachine";
import { quotationTransitionSchema } from "../../../src/core/schemas/quotation";
import { QUOTATION_STATES, type QuotationState } from "../../../src/core/states";
import { businessToday } from "../../../src/core/week";
import type { Db, Tx } from "../../db/client";
import {
  activities,
  audit_logs,
  client_product_catalogs,
  clients,
  products,
  project_types,
  projects,
  prospects,
  quotations,
} from "../../db/schema";
import { currentUser, requires } from "../../http/auth";
import { notFound, ValidationError, zodFieldErrors } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { recordSchema } from "../../http/records";
import { expectedVersion, idOf, type ResourceService, staleVersion, withValidation } from "../../http/resource";
import { testPause } from "../../http/testPause";
import { TEMPLATES_DIR } from "../../paths";
import { type DocumentsPort, type DriveWork, findFolder, listAll, safeFolderName } from "../../ports/documents";
import { nextClientCode, warnSimilarClients } from "../clients";
import { assertFolderFree, driveFailure, resolveDriveFolder, withDriveWork } from "../drive";
import { nextProjectCode, recordCreation } from "../projects";

export const QUOTATIONS_FOLDER = "Cotizaciones";
export const CONTRACT_TEMPLATE = "contrato_pld.docx";
/** The placeholder copied into the drive's Plantillas folder on first use (replace it there). */
export const CONTRACT_TEMPLATE_SOURCE = path.join(TEMPLATES_DIR, CONTRACT_TEMPLATE);

/** The contract template in the drive (Plantillas/contrato_pld.docx), put there on first use. */
export async function contractTemplate(port: DocumentsPort) {
  const folder =
    (await findFolder(port, port.rootId, TEMPLATES_FOLDER)) ?? (await port.createFolder(port.rootId, TEMPLATES_FOLDER));
  const found = (await listAll(port, folder.id)).find((item) => item.kind === "file" && item.name === CONTRACT_TEMPLATE);
  return found ?? port.upload(folder.id, CONTRACT_TEMPLATE, fs.readFileSync(CONTRACT_TEMPLATE_SOURCE));
}

type Prospect = typeof prospects.$inferSelect;
type Client = typeof clients.$inferSelect;

/**
 * Whom a quotation is for, its row locked for the transaction (so two approvals of one prospect's
 * quotations run one after the other): its client when it has one — a converted prospect's quotations
 * were carried over to the client, and a prospect won before is that client now — else its prospect.
 */
export type Party = { prospect: Prospect | null; client: Client | null };

export async function quotationParty(tx: Tx, quotation: typeof quotations.$inferSelect): Promise<Party> {
  const [prospect] = quotation.prospect_id
    ? await tx.select().from(prospects).where(eq(prospects.id, quotation.prospect_id)).for("update")
    : [];
  const [client] = quotation.client_id
    ? await tx.select().from(clients).where(eq(clients.id, quotation.client_id)).for("update")
    : prospect
      ? await tx.select().from(clients).where(eq(clients.prospect_id, prospect.id)).for("update")
      : [];
  return { prospect: prospect ?? null, client: client ?? null };
}

/** The party's name for documents: the client's when it is one. */
const partyName = (party: Party) => party.client?.name ?? party.prospect?.name ?? "";

/**
 * The party's folder: the client's own (created in the drive's root, and stored, when it has none), or the
 * prospect's CV_ folder (likewise).
 */
async function partyFolder(tx: Tx, work: DriveWork, party: Party) {
  const port = work.port;
  const record = party.client ?? party.prospect;
  if (!record) throw ValidationError.field("prospect", pipelineMessages.quotationWithoutProspect);
  const existing = record.drive_root_id ? await port.info(record.drive_root_id) : null;
  if (existing?.kind === "folder") return existing;
  const name = party.client ? party.client.name : `${PROSPECT_FOLDER_PREFIX}${record.name}`;
  const folder = await work.createFolder(port.rootId, safeFolderName(name), true);
  const table = party.client ? clients : prospects;
  await tx.update(table).set({ drive_root_id: folder.id, drive_root_url: folder.url }).where(eq(table.id, record.id));
  if (party.client) await work.ensureStructure(folder.id, CLIENT_FOLDERS);
  return folder;
}

export function transitionRoute(app: FastifyInstance, service: ResourceService) {
  app.post(
    "/quotations/:id/aasm_transition",
    {
      config: requires("quotations", "transition"),
      schema: doc({
        tags: ["quotations"],
        summary: "Cambiar el estado de la cotización",
        body: quotationTransitionSchema,
        params: idParams,
        version: "optional",
        current: { key: "quotation", schema: recordSchema(service.def) },
        // Its fields answer by the dialog's names, and the version is checked first.
        bodyReadByHandler: true,
        response: {
          200: z.object({
            quotation: recordSchema(service.def),
            warning: z.string().optional().describe("El folder anterior no se pudo eliminar del drive"),
          }),
        },
      }),
    },
    async (request) => {
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

      // The won prospect's CV_ folder, emptied into the client's: removed once the approval is committed.
      let emptied: string | null = null;
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
              const eventName = QUOTATION_EVENTS[event as QuotationEvent]?.name ?? event;
              throw ValidationError.field("invalid_transition", messages.invalidTransition(eventName, label));
            }
            const party = await quotationParty(tx, quotation);
            const needsParty = event === "approve_demo" || event === "request_contract" || event === "approve_quote";
            if (needsParty && !party.prospect && !party.client)
              throw ValidationError.field("prospect", pipelineMessages.quotationWithoutProspect);
            const changes: Partial<typeof quotations.$inferInsert> = { state: to, audit_comment: input.audit_comment };

            if (event === "approve_demo") {
              try {
                const folder = await partyFolder(tx, work, party);
                await work.ensureStructure(folder.id, [QUOTATIONS_FOLDER]);
              } catch (error) {
                driveFailure(error);
              }
            }

            if (event === "request_contract") {
              try {
                const folder = await partyFolder(tx, work, party);
                const { folders } = await work.ensureStructure(folder.id, ["Administración"]);
                const template = await contractTemplate(port);
                const taken = new Set((await listAll(port, folders.Administración.id)).map((i) => i.name));
                const base = `Contrato PLD - ${safeFolderName(partyName(party))}`;
                let name = `${base}.docx`;
                for (let n = 2; taken.has(name); n++) name = `${base} (${n}).docx`;
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
                party,
                userId: user.id,
                clientValues,
                pickedFolder: pickedFolder?.id ?? null,
                projectHash,
                comment: input.audit_comment,
              });
              changes.client_id = made.clientId;
              changes.project_id = made.projectId;
              emptied = made.emptiedFolder;
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
      let warning: string | undefined;
      if (emptied) {
        try {
          await port.delete(emptied);
        } catch (error) {
          request.log.warn({ err: error, folder: emptied }, "prospect folder not removed");
          warning = pipelineMessages.oldFolderNotRemoved;
        }
      }
      return { quotation: await service.show(service.context(app, request, "show"), id), ...(warning ? { warning } : {}) };
    },
  );
}

/**
 * approve_quote: the quotation's client — the one it already has (a converted prospect, a prospect won
 * before) or a new one made from the prospect and linked to it (clients.prospect_id, unique: one client
 * per won prospect) — gets the quotation's product and a new project (type 6) with its folder in the
 * client's Proyectos. A new client's folder is the one picked (else a new one in the drive's root); what
 * the prospect's CV_ folder held (Cotizaciones, the PLD contract) moves into it, and the emptied CV_ folder
 * is answered so the caller removes it after the commit.
 */
async function approveQuote(
  tx: Tx,
  work: DriveWork,
  params: {
    quotation: typeof quotations.$inferSelect;
    party: Party;
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
  const { quotation, party, clientValues, projectHash } = params;
  const [type] = await tx
    .select({ id: project_types.id })
    .from(project_types)
    .where(eq(project_types.id, QUOTATION_PROJECT_TYPE_ID));
  if (!type) throw ValidationError.base(pipelineMessages.projectTypeMissing(QUOTATION_PROJECT_TYPE_ID));
  const [product] = await tx.select().from(products).where(eq(products.id, quotation.product_catalog_id));

  // 1. The database: the client (found or new), its product, the project.
  let client = party.client;
  const prospect = party.prospect;
  if (!client) {
    if (!prospect) throw ValidationError.field("prospect", pipelineMessages.quotationWithoutProspect);
    const { client_product_catalogs_attributes: _ignored, drive_root_id: _id, drive_root_url: _url, ...fields } = clientValues;
    // A client named like another (or with its RFC) is confirmed first, as when one is created or converted.
    fields.name = (fields.name as string | undefined) ?? prospect.name;
    await warnSimilarClients(tx, fields);
    const clientCode = fields.client_code && fields.client_code !== "0" ? String(fields.client_code) : await nextClientCode(tx);
    [client] = await tx
      .insert(clients)
      .values({
        ...(fields as Partial<typeof clients.$inferInsert>),
        name: fields.name as string,
        client_code: clientCode,
        was_prospect: true,
        converted_to_prospect_by: params.userId,
        prospect_id: prospect.id,
      })
      .returning();
    // The time spent on the prospect is the client's now, as when a prospect is converted.
    await tx
      .update(activities)
      .set({ ownerable_type: "Client", ownerable_id: client.id })
      .where(and(eq(activities.ownerable_type, "Prospect"), eq(activities.ownerable_id, prospect.id)));
  }
  await tx
    .insert(client_product_catalogs)
    .values({ client_id: client.id, product_catalog_id: quotation.product_catalog_id })
    .onConflictDoNothing();
  const projectCode = await nextProjectCode(tx);
  const projectName = projectHash.name ?? `${product?.name ?? "Proyecto"} - ${client.name}`;
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
  // Its history starts like any project's: the creation row and the first audit entries.
  await recordCreation(tx, project, params.userId);

  await testPause("quotation_approval");

  // 2. The drive, last (undone by the caller on failure): the client's folder with its structure, the
  //    prospect's documents moved into it, and the project's folder inside Proyectos with its 9 folders.
  let emptiedFolder: string | null = null;
  try {
    const port = work.port;
    const isNew = !party.client;
    let clientFolder = !isNew && client.drive_root_id ? await port.info(client.drive_root_id) : null;
    if (clientFolder?.kind !== "folder") {
      clientFolder = params.pickedFolder
        ? await port.info(params.pickedFolder)
        : await work.createFolder(port.rootId, safeFolderName(client.name), true);
      if (!clientFolder) throw ValidationError.field("drive_root_id", pipelineMessages.folderNotFound);
      // A picked folder is the client's alone (decision 027); the prospect's own is about to be emptied.
      if (params.pickedFolder) {
        await assertFolderFree(
          tx,
          port,
          clientFolder,
          { kind: "client", id: client.id },
          {
            ignore: prospect ? [{ kind: "prospect", id: prospect.id }] : [],
          },
        );
      }
      await tx
        .update(clients)
        .set({ drive_root_id: clientFolder.id, drive_root_url: clientFolder.url })
        .where(eq(clients.id, client.id));
    }
    const { folders } = await work.ensureStructure(clientFolder.id, CLIENT_FOLDERS);
    if (isNew && prospect?.drive_root_id) {
      const cv = await port.info(prospect.drive_root_id);
      if (cv?.kind === "folder" && cv.id !== clientFolder.id) {
        await work.moveContent(cv.id, clientFolder.id);
        await tx.update(prospects).set({ drive_root_id: null, drive_root_url: null }).where(eq(prospects.id, prospect.id));
        emptiedFolder = cv.id;
      }
    }
    const projectFolder = await work.createFolder(folders.Proyectos.id, safeFolderName(`${projectCode} ${projectName}`), true);
    await work.ensureStructure(projectFolder.id, PROJECT_FOLDERS);
    await tx
      .update(projects)
      .set({ drive_root_id: projectFolder.id, drive_root_url: projectFolder.url })
      .where(eq(projects.id, project.id));
  } catch (error) {
    driveFailure(error);
  }
  return { clientId: client.id, projectId: project.id, emptiedFolder };
}
