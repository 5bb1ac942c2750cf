/** Reading the local outbox (DATA_DIR/outbox/*.eml) for the administrators' page. */
import fs from "node:fs/promises";
import path from "node:path";
import type { AddressObject } from "mailparser";
import type { OutboxMessage, OutboxSummary } from "../../../src/core/schemas/jobs";
import { OUTBOX_ID } from "./nodemailer";

export type { OutboxMessage, OutboxSummary };

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(", ");

async function parse(dir: string, id: string): Promise<OutboxMessage> {
  // mailparser (and its character-set tables) is loaded when the outbox page is read, not at start.
  const { simpleParser } = await import("mailparser");
  const parsed = await simpleParser(await fs.readFile(path.join(dir, `${id}.eml`)));
  return {
    id,
    date: parsed.date?.toISOString() ?? null,
    from: addresses(parsed.from),
    to: addresses(parsed.to),
    subject: parsed.subject ?? "",
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? "",
      content_type: a.contentType,
      size: a.size,
    })),
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : null,
  };
}

/** Newest first; only the requested page is parsed. */
export async function listOutbox(dir: string, page = 1, perPage = 25): Promise<{ items: OutboxSummary[]; total: number }> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { items: [], total: 0 };
    throw error;
  }
  const ids = names
    .filter((n) => n.endsWith(".eml"))
    .map((n) => n.slice(0, -4))
    .filter((id) => OUTBOX_ID.test(id))
    .sort()
    .reverse();
  const slice = ids.slice((page - 1) * perPage, page * perPage);
  const items = await Promise.all(
    slice.map(async (id) => {
      const { text: _t, html: _h, ...summary } = await parse(dir, id);
      return summary;
    }),
  );
  return { items, total: ids.length };
}

/** One message, or null when the id is not an outbox entry. */
export async function readOutbox(dir: string, id: string): Promise<OutboxMessage | null> {
  if (!OUTBOX_ID.test(id)) return null;
  try {
    return await parse(dir, id);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The raw .eml bytes of one message, or null. */
export async function readOutboxRaw(dir: string, id: string): Promise<Buffer | null> {
  if (!OUTBOX_ID.test(id)) return null;
  try {
    return await fs.readFile(path.join(dir, `${id}.eml`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
