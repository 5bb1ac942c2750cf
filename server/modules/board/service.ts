/**
 * Project boards. Members of a project's board are its involved users: the PM's and the
 * responsible's users, the users of employees assigned to the project's client and product, and whoever
 * has already written on it. Administrators read and write every board; only members can be mentioned.
 */
import { and, desc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import { boardMessages } from "../../../src/core/messages";
import { type BoardMessageView, handleOf, mentionedHandles } from "../../../src/core/schemas/board";
import type { SessionUser } from "../../../src/core/session";
import type { Db, Tx } from "../../db/client";
import { project_message_reads, project_messages, projects, users } from "../../db/schema";
import { ValidationError } from "../../http/errors";
import { publish } from "../../http/realtime";
import { type Notified, notify } from "../notifications";

/** Advisory-lock key that serialises board inserts, so message ids commit in order (stream cursors rely on it). */
export const BOARD_INSERT_LOCK_KEY = 7_310_090;

/**
 * SQL: the user `userId` is a member of the project whose id is `projectId` (an SQL expression).
 * A user is on a project's board while their employee is its PM or responsible, or is assigned to its
 * client and product. Having written on it keeps an administrator mentionable there, and only while they
 * are one: a demoted administrator or a replaced PM loses the board with the role that gave it.
 */
export function memberSql(userId: number | SQL, projectId: SQL) {
  // Aliases of their own (board_*), so `projectId` may name an outer row of any of these tables.
  return sql`(exists (select 1 from employees board_e join projects board_p on board_p.id = ${projectId}
      where board_e.user_id = ${userId} and (board_e.id = board_p.pm_id or board_e.id = board_p.rape_id or exists (
        select 1 from assignments board_a where board_a.employee_id = board_e.id and board_a.client_id = board_p.client_id
          and board_a.product_catalog_id = board_p.product_catalog_id)))
    or (exists (select 1 from project_messages board_m where board_m.project_id = ${projectId} and board_m.user_id = ${userId})
      and exists (select 1 from users board_u where board_u.id = ${userId} and board_u.administrator_role)))`;
}

export interface BoardMember {
  id: number;
  name: string;
  email: string;
  handle: string;
  can_chat: boolean;
}

export async function boardMembers(db: Tx, projectId: number): Promise<BoardMember[]> {
  const rows = (await db.execute(sql`select u.id, u.name, u.email, u.can_chat from users u
      where ${memberSql(sql`u.id`, sql`${projectId}::int`)} order by u.name, u.id`)) as unknown as {
    rows: Array<Omit<BoardMember, "handle">>;
  };
  return rows.rows.map((r) => ({ ...r, handle: handleOf(r.email) }));
}

export async function isMember(db: Tx, userId: number, projectId: number): Promise<boolean> {
  const result = (await db.execute(sql`select ${memberSql(userId, sql`${projectId}::int`)} as member`)) as unknown as {
    rows: Array<{ member: boolean }>;
  };
  return Boolean(result.rows[0]?.member);
}

export const canReadBoard = async (db: Tx, user: SessionUser, projectId: number) =>
  user.administrator_role || (await isMember(db, user.id, projectId));

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/** Messages with their authors and receipts, oldest first. */
export async function loadMessages(db: Tx, where: ReturnType<typeof and>, limit: number, newestFirst = true) {
  const rows = await db
    .select({
      id: project_messages.id,
      project_id: project_messages.project_id,
      user_id: project_messages.user_id,
      author_name: users.name,
      body: project_messages.body,
      mentions: project_messages.mentions,
      created_at: project_messages.created_at,
    })
    .from(project_messages)
    .innerJoin(users, eq(users.id, project_messages.user_id))
    .where(where)
    .orderBy(newestFirst ? desc(project_messages.id) : project_messages.id)
    .limit(limit);
  if (newestFirst) rows.reverse();
  const ids = rows.map((r) => r.id);
  const reads = ids.length
    ? await db
        .select({
          message_id: project_message_reads.message_id,
          user_id: project_message_reads.user_id,
          name: users.name,
          read_at: project_message_reads.read_at,
        })
        .from(project_message_reads)
        .innerJoin(users, eq(users.id, project_message_reads.user_id))
        .where(inArray(project_message_reads.message_id, ids))
        .orderBy(project_message_reads.read_at, project_message_reads.user_id)
    : [];
  return rows.map(
    (r): BoardMessageView => ({
      ...r,
      created_at: iso(r.created_at),
      seen_by: reads
        .filter((x) => x.message_id === r.id)
        .map((x) => ({ user_id: x.user_id, name: x.name, read_at: iso(x.read_at) })),
    }),
  );
}

export async function history(db: Tx, projectId: number, beforeId: number | undefined, perPage: number) {
  const rows = await loadMessages(
    db,
    and(eq(project_messages.project_id, projectId), beforeId ? lt(project_messages.id, beforeId) : undefined),
    perPage + 1,
  );
  const has_more = rows.length > perPage;
  return { messages: has_more ? rows.slice(1) : rows, has_more };
}

/** The members a message mentions, or a Spanish 422 (self-mention, non-member). */
export async function resolveMentions(db: Tx, author: SessionUser, projectId: number, body: string) {
  const handles = mentionedHandles(body);
  if (handles.length === 0) return [];
  if (handles.includes(handleOf(author.email))) throw ValidationError.field("body", boardMessages.selfMention);
  const members = await boardMembers(db, projectId);
  const byHandle = new Map<string, BoardMember[]>();
  for (const m of members) byHandle.set(m.handle, [...(byHandle.get(m.handle) ?? []), m]);
  const unknown = handles.filter((h) => !byHandle.has(h));
  if (unknown.length) throw ValidationError.field("body", boardMessages.notMember(unknown));
  return [...new Set(handles.flatMap((h) => byHandle.get(h)?.map((m) => m.id) ?? []))].filter((id) => id !== author.id);
}

export interface PostedMessage {
  message: BoardMessageView;
  notified: Notified[];
  projectName: string;
}

/** Stores a message, its mentions' notifications and its events, in one transaction (pushes are the caller's). */
export async function postMessage(db: Db, author: SessionUser, projectId: number, body: string): Promise<PostedMessage> {
  return db.transaction(async (tx) => {
    const mentions = await resolveMentions(tx, author, projectId, body);
    await tx.execute(sql`select pg_advisory_xact_lock(${BOARD_INSERT_LOCK_KEY})`);
    const [saved] = await tx
      .insert(project_messages)
      .values({ project_id: projectId, user_id: author.id, body, mentions })
      .returning({ id: project_messages.id });
    // Writing is reading: the author has seen their own message and everything before it.
    await markRead(tx, author.id, projectId, saved.id, false);
    const [project] = await tx
      .select({ name: projects.name, code: projects.project_code })
      .from(projects)
      .where(eq(projects.id, projectId));
    const projectName = `${project.code} ${project.name}`;
    await publish(tx, { t: "message", id: saved.id, project_id: projectId });
    const notified = await notify(
      tx,
      mentions.map((user_id) => ({
        kind: "mention",
        user_id,
        project_id: projectId,
        project_message_id: saved.id,
        author_name: author.name,
        message: body,
      })),
    );
    const [message] = await loadMessages(tx, eq(project_messages.id, saved.id), 1);
    return { message, notified, projectName };
  });
}

/** Receipts for the user's unread messages of a project up to `upTo` (all when null). */
export async function markRead(tx: Tx, userId: number, projectId: number, upTo: number | null, announce = true) {
  const inserted = (await tx.execute(sql`insert into project_message_reads (message_id, user_id)
      select m.id, ${userId}::int from project_messages m
      where m.project_id = ${projectId}::int and m.user_id <> ${userId}::int ${upTo ? sql`and m.id <= ${upTo}::int` : sql``}
      on conflict (message_id, user_id) do nothing
      returning message_id`)) as unknown as { rows: Array<{ message_id: number }> };
  const ids = inserted.rows.map((r) => Number(r.message_id));
  if (announce && ids.length)
    await publish(tx, { t: "receipt", project_id: projectId, user_id: userId, up_to: Math.max(...ids) });
  return ids.length;
}

/** SQL: messages of a project (an SQL expression) the user has not read, not counting their own. */
export const unreadCountSql = (userId: number, projectId: SQL) =>
  sql<number>`(select count(*)::int from project_messages um where um.project_id = ${projectId} and um.user_id <> ${userId}::int
    and not exists (select 1 from project_message_reads ur where ur.message_id = um.id and ur.user_id = ${userId}::int)
    and ${memberSql(userId, projectId)})`;

export async function unreadTotal(db: Tx, userId: number): Promise<number> {
  const result =
    (await db.execute(sql`select coalesce(sum(${unreadCountSql(userId, sql`unread_p.id`)}), 0)::int as n from projects unread_p
      where exists (select 1 from project_messages x where x.project_id = unread_p.id)`)) as unknown as {
      rows: Array<{ n: number }>;
    };
  return Number(result.rows[0]?.n ?? 0);
}
