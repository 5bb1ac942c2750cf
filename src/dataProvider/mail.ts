/** The local outbox (administrators): the messages the app sent or would send. */
import type { OutboxMessage, OutboxSummary } from "../core/schemas/jobs";
import { apiFetch } from "./http";

export type { OutboxMessage, OutboxSummary };

export const mailVerbs = {
  /** GET outbox?page&per_page: the local outbox, newest first; meta.adapter says whether mail goes by SMTP. */
  listOutbox: (page = 1, perPage = 25) =>
    apiFetch<{ outbox: OutboxSummary[]; meta: { total_count: number; adapter: "smtp" | "outbox" } }>("outbox", {
      query: { page, per_page: perPage },
    }),
  getOutboxMessage: (id: string) => apiFetch<{ outbox: OutboxMessage }>(`outbox/${encodeURIComponent(id)}`).then((r) => r.outbox),
};
