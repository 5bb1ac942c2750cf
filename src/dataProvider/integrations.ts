/** The «Integraciones» page (server/modules/integrations/routes.ts): which adapter each port runs, and a test call. */
import type { IntegrationCheck, IntegrationView } from "../core/schemas/integration";
import { apiFetch } from "./http";

export type { IntegrationCheck, IntegrationView };

export const integrationVerbs = {
  listIntegrations: () => apiFetch<{ integrations: IntegrationView[] }>("integrations").then((r) => r.integrations),
  /** POST integrations/:port/check: a failed test is {ok: false, message} (not an HTTP error). */
  checkIntegration: (port: string) =>
    apiFetch<IntegrationCheck>(`integrations/${encodeURIComponent(port)}/check`, { method: "POST", body: {} }),
};
