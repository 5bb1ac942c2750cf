import { and, eq, sql } from "drizzle-orm";
import { PROSPECT_FOLDER_PREFIX } from "../../../src/core/constants";
import { messages, pipelineMessages } from "../../../src/core/messages";
import { FINAL_QUOTATION_STATES } from "../../../src/core/quotationMachine";
import { prospectSchema, prospectUpdateSchema } from "../../../src/core/schemas/prospect";
import { activities, clients, prospects, quotations } from "../../db/schema";
import { searchOf, sortableOf } from "../../http/columns";
import { ValidationError } from "../../http/errors";
import { answered } from "../../http/records";
import { declareResource } from "../../http/resource";
import { outer } from "../../http/sql";
import { safeFolderName } from "../../ports/documents";
import {
  assertFolderFree,
  assertParentFree,
  driveFailure,
  driveWorkOf,
  keepVersion,
  renameOwnFolder,
  resolveDriveFolder,
  touchesFolder,
  undoDriveWorkOnFailure,
} from "../drive";
import { convertToClientRoute } from "./convert";

/** The client a won prospect became (an approved quotation made it): the prospect is that client now. */
const wonClientId = sql<
  number | null
>`(select ${clients.id} from ${clients} where ${clients.prospect_id} = ${outer(prospects.id)})`;
const wonClientName = sql<
  string | null
>`(select ${clients.name} from ${clients} where ${clients.prospect_id} = ${outer(prospects.id)})`;
const finalStates = sql.raw(FINAL_QUOTATION_STATES.map((s) => `'${s}'`).join(","));
/** Its quotations still open (they go over to the client if it is converted). */
const openQuotations = sql<number>`(select count(*)::int from ${quotations} where ${quotations.prospect_id} = ${outer(prospects.id)} and ${quotations.state} not in (${finalStates}))`;

export const prospectsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    client_id: answered.whole,
    client_name: answered.text,
    open_quotations: answered.whole,
  },
  name: "prospects",
  singular: "prospect",
  table: prospects,
  createSchema: prospectSchema,
  updateSchema: prospectUpdateSchema,
  search: searchOf("prospects", { name: prospects.name }),
  sortable: sortableOf("prospects", { id: prospects.id, name: prospects.name, created_at: prospects.created_at }),
  defaultSort: { column: "name", order: "asc" },
  computed: {
    client_id: wonClientId.as("client_id"),
    client_name: wonClientName.as("client_name"),
    open_quotations: openQuotations.as("open_quotations"),
  },
  deleteGuards: [
    // quotations.prospect_id is ON DELETE SET NULL and activities point at prospects polymorphically,
    // so neither is stopped by the database: the rule lives here.
    async (id, db) => {
      const [q] = await db.select({ n: sql<number>`count(*)::int` }).from(quotations).where(eq(quotations.prospect_id, id));
      const [a] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(activities)
        .where(and(eq(activities.ownerable_type, "Prospect"), eq(activities.ownerable_id, id)));
      const nq = q?.n ?? 0;
      const na = a?.n ?? 0;
      return nq + na > 0 ? messages.prospectInUse(nq, na) : null;
    },
  ],
  // A failed create or update undoes the folders its hooks made.
  aroundWrite: undoDriveWorkOnFailure,
  async beforeWrite(values, ctx, existing) {
    // A won prospect is its client now: what would change it is done on the client.
    if (existing?.client_id) {
      throw ValidationError.base(pipelineMessages.prospectAlreadyClient(String(existing.name), String(existing.client_name)));
    }
    const port = ctx.app.documents;
    if (!existing) {
      // On create the folder given is where the prospect's CV_ folder goes (the drive's root when none):
      // the CV_ folder is made here and is what the row stores, so the parent is never stored, not even
      // for a moment (two prospects created at once in one folder would collide on the unique index).
      const parent = (await resolveDriveFolder(port, values, { allowRoot: true })) ?? (await port.info(port.rootId));
      if (!parent) throw ValidationError.field("drive_root_id", pipelineMessages.folderNotFound);
      await assertParentFree(ctx.db, port, parent);
      try {
        const folder = await driveWorkOf(ctx.app, ctx.request).createFolder(
          parent.id,
          safeFolderName(`${PROSPECT_FOLDER_PREFIX}${values.name}`),
          true,
        );
        values.drive_root_id = folder.id;
        values.drive_root_url = folder.url;
      } catch (error) {
        driveFailure(error);
      }
      return values;
    }
    // On update it is the prospect's own folder: one of this drive's, and its alone (decision 027).
    if (touchesFolder(values, existing)) {
      const folder = await resolveDriveFolder(port, values);
      if (folder) await assertFolderFree(ctx.db, port, folder, { kind: "prospect", id: existing.id });
    }
    return values;
  },
  async afterWrite(record, ctx, existing) {
    if (!existing || existing.name === record.name || existing.drive_root_id !== record.drive_root_id) return;
    // Renamed: its own CV_ folder is renamed after it.
    try {
      const folder = await renameOwnFolder(
        ctx.db,
        driveWorkOf(ctx.app, ctx.request),
        { kind: "prospect", id: record.id },
        record.drive_root_id,
        safeFolderName(`${PROSPECT_FOLDER_PREFIX}${record.name}`),
      );
      if (folder) {
        await ctx.db
          .update(prospects)
          .set({ drive_root_id: folder.id, drive_root_url: folder.url, ...keepVersion(prospects) })
          .where(eq(prospects.id, record.id));
      }
    } catch (error) {
      driveFailure(error);
    }
  },
  routes(app) {
    convertToClientRoute(app);
  },
});
