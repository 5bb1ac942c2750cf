/**
 * Project boards: the message rule shared by the composer and the route, the mention handle,
 * and the tokenizer that turns a message into text and safe links (no HTML ever rendered).
 */
import { z } from "zod";
import { boardMessages, messages } from "../messages";
import { notANumber, optionalId } from "./fields";

/** A board message as the API answers it (the route builds it, the board screen reads it). */
export const boardMessageView = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  user_id: z.number().int(),
  author_name: z.string(),
  body: z.string(),
  mentions: z.array(z.number().int()),
  created_at: z.string(),
  seen_by: z.array(z.object({ user_id: z.number().int(), name: z.string(), read_at: z.string() })),
});
export type BoardMessageView = z.infer<typeof boardMessageView>;

/** The most characters a message holds, counted as a person sees them (graphemeCount). */
export const BOARD_MESSAGE_MAX = 500;
/**
 * The most UTF-16 units a message may take: a character a person sees can be many (👨‍👩‍👧‍👦 is 11, and
 * combining marks pile up without limit), so the visible limit alone would let a message grow unbounded.
 * 500 family emoji fit; the column holds as many code points.
 */
export const BOARD_MESSAGE_MAX_UNITS = 8000;
export const BOARD_PAGE_SIZE = 30;

const graphemes = new Intl.Segmenter("es", { granularity: "grapheme" });
/** Characters as a person counts them: an emoji, a flag or a letter with its accent is one. */
export function graphemeCount(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

export const boardMessageSchema = z.object({
  body: z
    .string({ error: boardMessages.bodyRequired })
    .trim()
    .min(1, { error: boardMessages.bodyRequired })
    .max(BOARD_MESSAGE_MAX_UNITS, { error: boardMessages.bodyTooLong(BOARD_MESSAGE_MAX) })
    .refine((body) => graphemeCount(body) <= BOARD_MESSAGE_MAX, { error: boardMessages.bodyTooLong(BOARD_MESSAGE_MAX) }),
});

export const markReadSchema = z.object({
  /** Marks every message up to this id (all when absent). */
  up_to_id: optionalId(),
});

/** GET projects/:id/messages: a page of the history, older than `before_id` when it comes. */
export const boardHistoryQuery = z.object({
  before_id: z.coerce.number({ error: notANumber }).int().positive().max(2_147_483_647).optional(),
  per_page: z.coerce.number({ error: notANumber }).int().min(1).max(100).default(BOARD_PAGE_SIZE),
});

export const boardHistoryAnswer = z.object({
  messages: z.array(boardMessageView),
  has_more: z.boolean(),
  per_page: z.number().int(),
});

/** POST projects/:id/messages: the message and who it mentioned (their user ids). */
export const boardPostAnswer = z.object({ message: boardMessageView, mentioned: z.array(z.number().int()) });

/** POST projects/:id/messages/read: how many were marked, and the user's unread messages left on every board. */
export const markReadAnswer = z.object({ read: z.number().int(), unread_messages: z.number().int() });

/** Someone who can be mentioned on a board. */
export const boardMember = z.object({ id: z.number().int(), name: z.string(), handle: z.string(), can_chat: z.boolean() });
export type BoardMember = z.infer<typeof boardMember>;
export const boardMembersAnswer = z.object({ members: z.array(boardMember) });

export const noticeSchema = z.object({
  message: z
    .string({ error: boardMessages.noticeRequired })
    .trim()
    .min(1, { error: boardMessages.noticeRequired })
    .max(1000, { error: messages.tooLong(1000) }),
  author_name: z
    .string()
    .trim()
    .max(200, { error: messages.tooLong(200) })
    .optional()
    .nullable(),
  workspace_id: optionalId(),
});

/* ---------- the bell ---------- */

export const NOTIFICATION_KIND_VALUES = ["notice", "mention", "project", "review"] as const;

/** GET notifications: a page, older than `before_id` when it comes. */
export const notificationsQuery = z.object({
  before_id: z.coerce.number({ error: notANumber }).int().positive().max(2_147_483_647).optional(),
  per_page: z.coerce.number({ error: notANumber }).int().min(1).max(100).default(20),
});

/** A notification of the bell, as GET notifications answers it. */
export const bellNotification = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KIND_VALUES),
  message: z.string(),
  author_name: z.string(),
  project_id: z.number().int().nullable(),
  project_name: z.string().nullable(),
  project_message_id: z.number().int().nullable(),
  /** A review's notification: the Monday of the week it is about. */
  week_start: z.string().nullable(),
  seen_at: z.string().nullable(),
  created_at: z.string(),
});
export type BellNotification = z.infer<typeof bellNotification>;
export const notificationsAnswer = z.object({ notifications: z.array(bellNotification), has_more: z.boolean() });

/** GET notifications/summary: the menu's counters. */
export const notificationSummary = z.object({
  unread_messages: z.number().int(),
  unseen_notifications: z.number().int(),
  /** Whether the user reviews anyone's weeks (an administrator or a workspace boss), and how many wait. */
  reviewer: z.boolean(),
  pending_reviews: z.number().int(),
});
export type Summary = z.infer<typeof notificationSummary>;

/** PUT notifications/:id/seen: the notification as stored. */
export const notificationSeenAnswer = z.object({
  notification: z.object({
    id: z.number().int(),
    message: z.string(),
    author_name: z.string(),
    user_id: z.number().int().nullable(),
    workspace_id: z.number().int().nullable(),
    kind: z.enum(NOTIFICATION_KIND_VALUES),
    project_id: z.number().int().nullable(),
    project_message_id: z.number().int().nullable(),
    notice_id: z.number().int().nullable(),
    week_start: z.string().nullable(),
    seen_at: z.string().nullable(),
    emailed_at: z.string().nullable(),
    created_at: z.string(),
  }),
});

/** POST notifications: the notice, how many received it, and the toast's text. */
export const noticeAnswer = z.object({
  notification: z.object({
    id: z.number().int(),
    message: z.string(),
    author_name: z.string(),
    workspace_id: z.number().int().nullable(),
    created_by: z.number().int().nullable(),
    created_at: z.string(),
    recipients: z.number().int(),
  }),
  message: z.string(),
});

export const pushSubscriptionSchema = z.object({
  endpoint: z.string({ error: messages.required }).url({ error: boardMessages.subscriptionInvalid }).max(2000),
  keys: z.object(
    {
      p256dh: z.string({ error: messages.required }).min(16).max(200),
      auth: z.string({ error: messages.required }).min(8).max(100),
    },
    { error: boardMessages.subscriptionInvalid },
  ),
});

/** GET push/public_key: the server's VAPID public key, for the browser's subscription. */
export const pushPublicKeyAnswer = z.object({ public_key: z.string() });
/** POST push/subscriptions: the device's subscription as saved. */
export const pushSubscriptionAnswer = z.object({
  subscription: z.object({ id: z.number(), endpoint: z.string(), created_at: z.string() }),
});
/** DELETE push/subscriptions: how many of the user's subscriptions had that endpoint (0 or 1). */
export const pushUnsubscribeAnswer = z.object({ removed: z.number() });

/** A user's handle on boards: the local part of their e-mail, lower case (@ana.lopez). */
export const handleOf = (email: string) => email.split("@")[0].toLowerCase();

const MENTION = /(^|[^\p{L}\p{N}_.@-])@([\p{L}\p{N}_][\p{L}\p{N}._-]*)/gu;

/** The handles a message mentions (lower case, each once). `a@b.mx` is an address, not a mention. */
export function mentionedHandles(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(MENTION)) found.add(match[2].replace(/[._-]+$/, "").toLowerCase());
  found.delete("");
  return [...found];
}

export type BoardToken = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

const URL_LIKE = /\bhttps?:\/\/[^\s<>"']+/gi;

/** Splits a message into plain text and http(s) links; anything else (javascript:, data:) stays text. */
export function tokenizeMessage(body: string): BoardToken[] {
  const tokens: BoardToken[] = [];
  let last = 0;
  for (const match of body.matchAll(URL_LIKE)) {
    let url = match[0].replace(/[),.;:!?]+$/, "");
    const start = match.index ?? 0;
    let href: string | null = null;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") href = parsed.href;
    } catch {
      href = null;
    }
    if (!href) {
      url = "";
      continue;
    }
    if (start > last) tokens.push({ kind: "text", text: body.slice(last, start) });
    tokens.push({ kind: "link", text: url, href });
    last = start + url.length;
  }
  if (last < body.length) tokens.push({ kind: "text", text: body.slice(last) });
  return tokens;
}
