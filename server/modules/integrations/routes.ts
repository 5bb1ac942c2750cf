/**
 * The administrators' «Integraciones» page: which adapter each port runs and a connection test.
 *   GET  /api/v1/integrations              {integrations: [{port, label, kind, active, variables}]}
 *   POST /api/v1/integrations/:port/check  runs the adapter's check() (bounded by a timeout) →
 *                                          {ok: true, message: "Conexión correcta"} or {ok: false, message: reason}
 * A failed check is a 200 with ok false (the page shows the reason), never a 500; an unknown port is a 404.
 * Matrix: integrations × list (the page) and × show (a test). A new port is one entry in INTEGRATIONS.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { integrationMessages } from "../../../src/core/messages";
import { integrationCheckAnswer, integrationListAnswer } from "../../../src/core/schemas/integration";
import { requires } from "../../http/auth";
import { HttpError } from "../../http/errors";
import { doc } from "../../http/openapi";
import type { Integration } from "../../ports/integration";

export interface IntegrationEntry {
  /** Stable id, used in the URL and by the page. */
  port: string;
  /** Spanish name on the page (integrationMessages.labels). */
  label: string;
  /** The environment variables that switch or tune this port (README lists them). */
  variables: string[];
  /** The app's adapter for the port; null when none is configured. */
  adapter: (app: FastifyInstance) => Integration | null;
  /** What a null adapter means on this page. */
  whenNull?: string;
}

const label = (port: string) => integrationMessages.labels[port] ?? port;

/** Every port the page shows, in order. */
export const INTEGRATIONS: IntegrationEntry[] = [
  {
    port: "documents",
    label: label("documents"),
    variables: ["DOCUMENTS_ADAPTER", "DATA_DIR", "GOOGLE_DRIVE_ROOT_ID", "GOOGLE_SERVICE_ACCOUNT_KEY_FILE"],
    adapter: (app) => app.documents,
  },
  {
    port: "calendar",
    label: label("calendar"),
    variables: ["CALENDAR_ADAPTER", "PUBLIC_URL", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
    adapter: (app) => app.calendar,
  },
  {
    port: "calendarReader",
    label: label("calendarReader"),
    variables: ["CALENDAR_ADAPTER", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
    adapter: (app) => app.calendarReader,
    whenNull: integrationMessages.calendarReaderNotConfigured,
  },
  { port: "mail", label: label("mail"), variables: ["SMTP_URL", "MAIL_FROM"], adapter: (app) => app.mail },
  {
    port: "tickets",
    label: label("tickets"),
    variables: ["AZURE_DEVOPS_ORG_URL", "AZURE_DEVOPS_PAT", "AZURE_DEVOPS_PROJECT"],
    adapter: (app) => app.tickets,
  },
  { port: "push", label: label("push"), variables: ["PUSH_SUBJECT"], adapter: (app) => app.push },
  {
    port: "identity",
    label: label("identity"),
    variables: ["OIDC_AUTHORITY", "OIDC_CLIENT_ID", "OIDC_BUTTON_LABEL"],
    adapter: (app) => app.identity,
    whenNull: integrationMessages.identityNotConfigured,
  },
];

/** Adapters that are SIA's own defaults (nothing outside this machine): shown as «Predeterminado local». */
export const LOCAL_KINDS = new Set(["local", "outbox", "none"]);

/** How long one connection test may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 10_000;

export interface CheckResult {
  ok: boolean;
  message: string;
}

/** Runs check() with a timeout; any failure is a result with the Spanish reason, never a throw. */
export async function runCheck(
  entry: IntegrationEntry,
  app: FastifyInstance,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<CheckResult> {
  const adapter = entry.adapter(app);
  if (!adapter) return { ok: true, message: entry.whenNull ?? integrationMessages.notConfigured };
  if (adapter.kind === "none") return { ok: true, message: integrationMessages.notConfigured };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      adapter.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(integrationMessages.checkTimeout(Math.ceil(timeoutMs / 1000)))), timeoutMs);
      }),
    ]);
    return { ok: true, message: integrationMessages.checkOk };
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : integrationMessages.checkFailed;
    app.log.warn({ err: error, port: entry.port }, "integration check failed");
    return { ok: false, message };
  } finally {
    clearTimeout(timer);
  }
}

/** A port by its id; an unknown one answers its own 404 (integrationMessages.unknownPort). */
const portParams = z.object({ port: z.string() });

export async function integrationsRoutes(app: FastifyInstance) {
  const tags = ["integrations"];
  app.get(
    "/integrations",
    {
      config: requires("integrations", "list"),
      schema: doc({ tags, summary: "Integraciones: adaptador de cada puerto", response: { 200: integrationListAnswer } }),
    },
    async (_request) => {
      return {
        integrations: INTEGRATIONS.map((entry) => {
          const adapter = entry.adapter(app);
          const kind = adapter?.kind ?? "none";
          return { port: entry.port, label: entry.label, kind, active: !LOCAL_KINDS.has(kind), variables: entry.variables };
        }),
      };
    },
  );

  app.post(
    "/integrations/:port/check",
    {
      config: requires("integrations", "show"),
      schema: doc({
        tags,
        summary: "Probar la conexión de una integración",
        params: portParams,
        response: { 200: integrationCheckAnswer },
      }),
    },
    async (request) => {
      const port = (request.params as z.output<typeof portParams>).port;
      const entry = INTEGRATIONS.find((e) => e.port === port);
      if (!entry) throw new HttpError(404, integrationMessages.unknownPort);
      return runCheck(entry, app);
    },
  );
}
