/**
 * Azure DevOps adapter of the tickets port (SPEC §7 get_ticket_by_proyect), with the official client
 * (azure-devops-node-api): a WIQL query on the team project, then the work items' id, title and state
 * in one batch. The token is the user's own `azure_token` when saved, else AZURE_DEVOPS_PAT; the team
 * project is the SIA project's name when the activity has one, else AZURE_DEVOPS_PROJECT.
 * Every failure becomes a 422 titled "Azure Devops" with a Spanish reason (never a 500). Decided in
 * docs/decisions/014-azure-devops-tickets.md.
 */
import { getPersonalAccessTokenHandler, WebApi } from "azure-devops-node-api";
import { WorkItemErrorPolicy } from "azure-devops-node-api/interfaces/WorkItemTrackingInterfaces.js";
import type { IWorkItemTrackingApi } from "azure-devops-node-api/WorkItemTrackingApi.js";
import { messages } from "../../../src/core/messages";
import { type Ticket, type TicketSearch, TicketsError, type TicketsPort } from "./port";

/** What the adapter reads from SIA's database (injected, so the adapter knows no tables). */
export interface TicketsDirectory {
  /** The user's saved azure token, or null. */
  userToken(userId: number): Promise<string | null>;
  /** The SIA project's name, or null when it does not exist. */
  projectName(projectId: number): Promise<string | null>;
}

export interface AzureDevOpsSettings {
  /** Organisation (or collection) URL, without a trailing slash. */
  orgUrl: string;
  /** Token used when the user has none of their own. */
  pat?: string;
  /** Team project used when the search names no SIA project. */
  project?: string;
  /** Work items one search returns at most. */
  limit?: number;
  /** Milliseconds one request to Azure DevOps may take. */
  timeoutMs?: number;
}

/** Tokens whose negotiated client is kept. */
const MAX_CLIENTS = 50;
const FIELDS = ["System.Id", "System.Title", "System.State", "System.TeamProject"];

/** A WIQL string literal: single quotes doubled, so the text stays text whatever it holds. */
export const wiqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The WIQL of a search: the project's work items whose title contains the text or whose id is it (all when no text), newest first. */
export function ticketsWiql(project: string, search: string): string {
  const text = search.trim();
  const conditions = [`[System.Title] CONTAINS ${wiqlString(text)}`];
  if (/^\d{1,9}$/.test(text)) conditions.push(`[System.Id] = ${Number(text)}`);
  // No text: the project's newest work items.
  const matching = text ? ` AND (${conditions.join(" OR ")})` : "";
  return `SELECT [System.Id], [System.Title], [System.State] FROM WorkItems WHERE [System.TeamProject] = ${wiqlString(project)}${matching} ORDER BY [System.ChangedDate] DESC`;
}

interface ProviderError {
  statusCode?: number;
  code?: string;
  message?: string;
}

export class AzureDevOpsTickets implements TicketsPort {
  readonly kind = "azure-devops";
  private readonly limit: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly settings: AzureDevOpsSettings,
    private readonly directory: TicketsDirectory,
  ) {
    this.limit = settings.limit ?? 50;
    this.timeoutMs = settings.timeoutMs ?? 10_000;
  }

  /**
   * The work-item client of a token. The client negotiates resource areas and locations (three requests)
   * before its first call, so each token's client is kept (a few, oldest dropped) and forgotten on any error.
   */
  private readonly clients = new Map<string, Promise<IWorkItemTrackingApi>>();

  private connection(token: string) {
    return new WebApi(this.settings.orgUrl, getPersonalAccessTokenHandler(token), {
      socketTimeout: this.timeoutMs,
      allowRetries: false,
    });
  }

  private workItems(token: string): Promise<IWorkItemTrackingApi> {
    let client = this.clients.get(token);
    if (!client) {
      client = this.connection(token).getWorkItemTrackingApi();
      this.clients.set(token, client);
      if (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value as string);
    }
    return client;
  }

  async search(query: TicketSearch): Promise<Ticket[]> {
    const token = (await this.directory.userToken(query.user_id))?.trim() || this.settings.pat;
    if (!token) throw new TicketsError("no_token", messages.ticketsNoToken);
    let project: string | undefined;
    if (query.project_id) {
      const name = await this.directory.projectName(query.project_id);
      if (name === null) throw new TicketsError("project_not_found", messages.ticketsSiaProjectMissing);
      project = name;
    } else {
      project = this.settings.project;
    }
    if (!project) throw new TicketsError("no_project", messages.ticketsNoProject);

    try {
      const wit = await this.workItems(token);
      const result = await wit.queryByWiql({ query: ticketsWiql(project, query.search) }, { project }, undefined, this.limit);
      // The client answers a 404 with null instead of throwing: the team project does not exist.
      if (!result) throw new TicketsError("project_not_found", messages.ticketsProjectNotFound(project));
      const ids = (result.workItems ?? [])
        .map((w) => w.id)
        .filter((id): id is number => typeof id === "number")
        .slice(0, this.limit);
      if (ids.length === 0) return [];
      const items = await wit.getWorkItemsBatch({ ids, fields: FIELDS, errorPolicy: WorkItemErrorPolicy.Omit }, project);
      if (!Array.isArray(items)) throw new TicketsError("project_not_found", messages.ticketsProjectNotFound(project));
      const byId = new Map(items.filter((w) => w && typeof w.id === "number").map((w) => [w.id as number, w]));
      return ids.flatMap((id) => {
        const item = byId.get(id);
        if (!item) return [];
        const fields = (item.fields ?? {}) as Record<string, unknown>;
        const teamProject = typeof fields["System.TeamProject"] === "string" ? fields["System.TeamProject"] : project;
        return [
          {
            id: String(id),
            name: String(fields["System.Title"] ?? ""),
            state: typeof fields["System.State"] === "string" ? fields["System.State"] : null,
            url: this.webUrl(teamProject as string, id),
          },
        ];
      });
    } catch (error) {
      this.clients.delete(token);
      throw this.failure(error, project);
    }
  }

  /** The work item's page in Azure DevOps. */
  private webUrl(project: string, id: number) {
    return `${this.settings.orgUrl}/${encodeURIComponent(project)}/_workitems/edit/${id}`;
  }

  /** One cheap authenticated call: the first team project the token sees. */
  async check(): Promise<void> {
    if (!this.settings.pat) throw new TicketsError("no_token", messages.ticketsNoToken);
    try {
      const core = await this.connection(this.settings.pat).getCoreApi();
      const projects = await core.getProjects(undefined, 1);
      if (!Array.isArray(projects)) throw new TicketsError("bad_answer", messages.ticketsBadAnswer);
      if (this.settings.project) {
        const project = await core.getProject(this.settings.project);
        if (!project) throw new TicketsError("project_not_found", messages.ticketsProjectNotFound(this.settings.project));
      }
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** Any error of the client as a TicketsError with a Spanish reason. */
  private failure(error: unknown, project?: string): TicketsError {
    if (error instanceof TicketsError) return error;
    const e = (error ?? {}) as ProviderError;
    if (e.statusCode === 401 || e.statusCode === 403 || e.statusCode === 203)
      return new TicketsError("unauthorized", messages.ticketsUnauthorized);
    if (e.statusCode === 404)
      return project
        ? new TicketsError("project_not_found", messages.ticketsProjectNotFound(project))
        : new TicketsError("bad_answer", messages.ticketsHttpError(404));
    if (typeof e.statusCode === "number") return new TicketsError("bad_answer", messages.ticketsHttpError(e.statusCode));
    if (e.code || /timeout|socket|ECONN|ENOTFOUND|EAI_AGAIN/i.test(e.message ?? ""))
      return new TicketsError("unreachable", messages.ticketsUnreachable);
    return new TicketsError("bad_answer", messages.ticketsBadAnswer);
  }
}
