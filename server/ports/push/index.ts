import type { Config } from "../../config";
import type { Database } from "../../db/client";
import type { PushPort } from "./port";
import { WebPush } from "./webpush";

export * from "./endpoint";
export * from "./port";
export { PUSH_TTL_SECONDS, vapidKeys, WebPush } from "./webpush";

export function createPush(config: Config, database: Database): PushPort {
  return new WebPush(database, config.PUSH_SUBJECT, config.PUSH_ALLOWED_HOSTS, config.PUSH_TIMEOUT_MS);
}
