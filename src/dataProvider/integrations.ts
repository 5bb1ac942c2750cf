/**
 * The «Integraciones» page (server/modules/integrations/routes.ts). Not part of the dataProvider: its verb
 * names (list, check) would read as resource calls there.
 */
import type { IntegrationCheck, IntegrationView } from "../core/schemas/integration";
import { apiFetch } from "./http";

export type { IntegrationCheck, IntegrationView };

export const integrationVerbs = {
  list: () => apiFetch<{ integrations: IntegrationView[] }>("integrations").then((r) => r.integrations),
  /** POST integrations/:port/check: a failed test is {ok: false, message} (not an HTTP error). */
  check: (port: string) =>
    apiFetch<IntegrationCheck>(`integrations/${encodeURIComponent(port)}/check`, { method: "POST", body: {} }),
};
