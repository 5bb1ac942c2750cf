/**
 * Quotations (SPEC §3, §4, §7): the list with product and status filters, the states call, the
 * transitions of src/core/quotationMachine.ts (transition.ts) and the calendar event with its .ics.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { messages } from "../../../src/core/messages";
import { FINAL_QUOTATION_STATES, permittedEvents, quotationStateOptions } from "../../../src/core/quotationMachine";
import { labelledAuditLogsAnswer } from "../../../src/core/schemas/project";
import { quotationSchema, quotationStatesAnswer, quotationUpdateSchema } from "../../../src/core/schemas/quotation";
import { QUOTATION_STATES, type QuotationState } from "../../../src/core/states";
import { auditTrail } from "../../db/audit";
import type { Tx } from "../../db/client";
import { clients, products, prospects, quotations, users } from "../../db/schema";
import { currentUser, requires } from "../../http/auth";
import { searchOf, sortableOf } from "../../http/columns";
import { notFound, ValidationError } from "../../http/errors";
import { doc, fileAnswer, idParams } from "../../http/openapi";
import { answered } from "../../http/records";
import { declareResource, filter, idOf } from "../../http/resource";
import { decryptSecret, encryptSecret, secretKey } from "../../http/secrets";
import { outer } from "../../http/sql";
import { type CalendarAccount, CalendarError, toIcs } from "../../ports/calendar";
import { storeCloudToken } from "../users";
import { eventForStorage, eventTimes, invitationPath } from "./event";
import { transitionRoute } from "./transition";

const prospectName = sql<
  string | null
>`(select ${prospects.name} from ${prospects} where ${prospects.id} = ${outer(quotations.prospect_id)})`;
const productName = sql<
  string | null
>`(select ${products.name} from ${products} where ${products.id} = ${outer(quotations.product_catalog_id)})`;
/** Its client: the one it was carried over to or made, else the client its prospect became (won before). */
const clientName = sql<string | null>`(select ${clients.name} from ${clients} where ${clients.id} = ${outer(quotations.client_id)}
  or (${outer(quotations.client_id)} is null and ${clients.prospect_id} = ${outer(quotations.prospect_id)}) limit 1)`;
const stateName = sql`(case ${outer(quotations.state)} ${sql.raw(
  Object.entries(QUOTATION_STATES)
    .map(([id, name]) => `when '${id}' then '${name.replace(/'/g, "''")}'`)
    .join(" "),
)} else ${outer(quotations.state)} end)`;

const stateLabel = (state: string) => QUOTATION_STATES[state as QuotationState] ?? state;

/**
 * The quotation's state, its row locked for the rest of the write: a change racing a transition (the
 * approval holds the same lock) waits for it and is judged against the state it left.
 */
async function lockedState(db: Tx, id: number): Promise<string | null> {
  const [row] = await db.select({ state: quotations.state }).from(quotations).where(eq(quotations.id, id)).for("update");
  return row?.state ?? null;
}

const isFinal = (state: string | null) => state !== null && (FINAL_QUOTATION_STATES as string[]).includes(state);

/** The organizer's calendar account: their stored token (decrypted), and where a refreshed one is kept. */
function calendarAccount(app: FastifyInstance, db: Tx, organizer: { id: number; token: string | null } | null): CalendarAccount {
  const key = secretKey(app.config);
  return {
    token: organizer?.token ? decryptSecret(organizer.token, key) : null,
    saveToken: organizer ? (fresh) => storeCloudToken(db, organizer.id, encryptSecret(fresh, key), undefined) : undefined,
  };
}

export const quotationsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    prospect_name: answered.text,
    product_name: answered.text,
    client_name: answered.text,
    state_name: answered.text,
  },
  name: "quotations",
  singular: "quotation",
  table: quotations,
  createSchema: quotationSchema,
  updateSchema: quotationUpdateSchema,
  search: searchOf("quotations", { contact_name: quotations.contact_name }),
  sortable: sortableOf("quotations", {
    id: quotations.id,
    contact_name: quotations.contact_name,
    state: quotations.state,
    created_at: quotations.created_at,
    updated_at: quotations.updated_at,
    prospect_name: prospectName,
    product_name: productName,
  }),
  defaultSort: { column: "created_at", order: "desc" },
  filters: {
    by_product: filter.idIn(quotations.product_catalog_id),
    by_status: filter.valueIn(quotations.state, Object.keys(QUOTATION_STATES)),
    prospect_id: filter.idEquals(quotations.prospect_id),
  },
  computed: {
    prospect_name: prospectName.as("prospect_name"),
    product_name: productName.as("product_name"),
    client_name: clientName.as("client_name"),
    state_name: stateName.as("state_name"),
  },
  present: (record) => ({ ...record, permitted_events: permittedEvents(String(record.state)) }),
  deleteGuards: [
    async (id, db) => {
      const state = await lockedState(db, id);
      return state && isFinal(state) ? messages.quotationFinalDelete(stateLabel(state)) : null;
    },
  ],
  async beforeWrite(values, ctx, existing) {
    delete values.state;
    // Final states (Alta Cliente, Rechazada, Cancelada) are the record of what happened: read-only.
    if (existing) {
      const state = await lockedState(ctx.db, existing.id);
      if (state && isFinal(state)) throw ValidationError.base(messages.quotationFinalLocked(stateLabel(state)));
    }
    if (!("event" in values)) return values;
    const calendar = ctx.app.calendar;
    const previousId = existing?.event_id ?? null;
    const user = currentUser(ctx.request);
    // The event lives in its organizer's calendar: an update or a removal goes there, whoever makes it.
    const previousOrganizer =
      previousId && existing?.event && typeof existing.event === "object"
        ? ((existing.event as { organizer?: { email?: string } | null }).organizer?.email ?? null)
        : null;
    const [organizer] = await ctx.db
      .select({ id: users.id, email: users.email, name: users.name, token: users.cloud_token_encrypted })
      .from(users)
      .where(previousOrganizer ? eq(users.email, previousOrganizer) : eq(users.id, user.id));
    const account = calendar.usesAccount ? calendarAccount(ctx.app, ctx.db, organizer ?? null) : undefined;
    const provider = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof CalendarError) throw ValidationError.base(error.message);
        throw error;
      }
    };
    if (values.event === null || values.event === undefined) {
      if (previousId) await provider(() => calendar.deleteEvent(previousId, account));
      return { ...values, event: null, event_id: null, event_url: null };
    }
    const input = values.event;
    const prospectId = values.prospect_id ?? existing?.prospect_id;
    const [prospect] = prospectId
      ? await ctx.db.select({ name: prospects.name }).from(prospects).where(eq(prospects.id, prospectId))
      : [];
    const stored = eventForStorage(input, {
      summary: `Demostración — ${prospect?.name ?? values.contact_name ?? existing?.contact_name}`,
      organizer: organizer ? { email: organizer.email, name: organizer.name } : null,
      sequence:
        existing?.event && typeof existing.event === "object"
          ? Number((existing.event as { sequence?: number }).sequence ?? 0) + 1
          : 0,
    });
    const calendarInput = {
      summary: stored.summary,
      description: stored.description,
      startsAt: new Date(stored.start.dateTime),
      endsAt: new Date(stored.end.dateTime),
      attendees: stored.attendees.map((a) => a.email),
      organizerEmail: organizer?.email ?? null,
    };
    const ref = await provider(() =>
      previousId ? calendar.updateEvent(previousId, calendarInput, account) : calendar.createEvent(calendarInput, account),
    );
    return { ...values, event: stored, event_id: ref.id, event_url: ref.url };
  },
  async afterWrite(record, ctx) {
    // The local calendar links the invitation of this very record.
    if (record.event && record.event_id && !record.event_url) {
      await ctx.db
        .update(quotations)
        .set({ event_url: invitationPath(record.id) })
        .where(eq(quotations.id, record.id));
    }
  },
  routes(app, service) {
    app.get(
      "/quotations/quotation_states",
      {
        config: requires("quotations", "list"),
        schema: doc({
          tags: ["quotations"],
          summary: "Estados de cotización con su nombre",
          response: { 200: quotationStatesAnswer },
        }),
      },
      async (_request) => {
        return { quotation_states: quotationStateOptions() };
      },
    );
    app.get(
      "/quotations/:id/invitation.ics",
      {
        config: requires("quotations", "show"),
        schema: doc({
          tags: ["quotations"],
          summary: "Invitación iCalendar del evento",
          params: idParams,
          response: { 200: fileAnswer("text/calendar", "El evento como archivo .ics") },
        }),
      },
      async (request, reply) => {
        const id = idOf(request);
        const [row] = await app.db.db.select().from(quotations).where(eq(quotations.id, id)).limit(1);
        const times = row ? eventTimes(row.event) : null;
        if (!row || !times) throw notFound();
        const event = row.event as {
          summary?: string;
          description?: string;
          attendees?: Array<{ email: string } | string>;
          organizer?: { email?: string; name?: string };
          sequence?: number;
        };
        const ics = toIcs({
          uid: row.event_id ?? `cotizacion-${row.id}@sia`,
          summary: event.summary ?? `Cotización ${row.id}`,
          description: event.description ?? null,
          startsAt: times.startsAt,
          endsAt: times.endsAt,
          attendees: (event.attendees ?? []).map((a) => (typeof a === "string" ? a : a.email)).filter(Boolean),
          organizerEmail: event.organizer?.email ?? null,
          organizerName: event.organizer?.name ?? null,
          sequence: event.sequence ?? 0,
          stamp: row.updated_at,
        });
        return reply
          .type("text/calendar; charset=utf-8; method=REQUEST")
          .header("content-disposition", `attachment; filename="cotizacion-${row.id}.ics"`)
          .send(ics);
      },
    );
    app.get(
      "/quotations/:id/audit_logs",
      {
        config: requires("quotations", "show"),
        schema: doc({
          tags: ["quotations"],
          summary: "Historial de estados y comentarios de la cotización",
          params: idParams,
          response: { 200: labelledAuditLogsAnswer },
        }),
      },
      async (request) => {
        const id = idOf(request);
        const [row] = await app.db.db.select({ id: quotations.id }).from(quotations).where(eq(quotations.id, id)).limit(1);
        if (!row) throw notFound();
        const trail = await auditTrail(app.db.db, "Quotation", id);
        return {
          audit_logs: trail.map((entry) => ({
            ...entry,
            old_value_label: entry.field === "state" && entry.old_value ? stateLabel(entry.old_value) : entry.old_value,
            new_value_label: entry.field === "state" && entry.new_value ? stateLabel(entry.new_value) : entry.new_value,
          })),
        };
      },
    );
    transitionRoute(app, service);
  },
});
