/**
 * Hours on days after today are refused unless app_settings allows them. A suite that really needs
 * future dates (fixed years such as 2030, or a whole current week) turns the setting on here, in its own
 * setup, so that the default stays off everywhere else.
 */
import type { FastifyInstance } from "fastify";
import type { Database } from "../../server/db/client";
import { app_settings } from "../../server/db/schema";

export async function allowFutureActivities(target: FastifyInstance | Database, allow = true): Promise<void> {
  const database = "inject" in target ? target.db : target;
  await database.db
    .insert(app_settings)
    .values({ id: 1, allow_future_activities: allow })
    .onConflictDoUpdate({ target: app_settings.id, set: { allow_future_activities: allow } });
}
