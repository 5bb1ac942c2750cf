/** Extra calls on catalogue records (SPEC §7): the next client code, the client/prospect search, a workspace's notices. */
import type { Identifier, RaRecord } from "react-admin";
import { ifMatch, recordPath } from "./base";
import { apiFetch } from "./http";

export const recordVerbs = {
  nextClientCode: () => apiFetch<{ client_code: string }>("clients/next_client_code").then((r) => r.client_code),
  searchClientsAndProspects: (search: string) =>
    apiFetch<{ clients: RaRecord[]; prospects: RaRecord[] }>("clients/search_clients_and_prospects", { query: { search } }),
  /** PUT workspaces/:id/toggle_notification: flips is_notifiable, answers the workspace. */
  toggleWorkspaceNotification: (id: Identifier, version?: number) =>
    apiFetch<{ workspace: RaRecord }>(recordPath("workspaces", id, "toggle_notification"), {
      method: "PUT",
      headers: ifMatch(version),
    }).then((r) => r.workspace),
};
