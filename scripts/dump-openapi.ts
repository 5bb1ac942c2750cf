/** Writes the published OpenAPI document (what /api/docs/json answers) to a file: `tsx scripts/dump-openapi.ts out.json`. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "../server/app";
import { loadConfig } from "../server/config";
import { openPglite } from "../server/db/client";

const out = process.argv[2] ?? "openapi.json";
const database = await openPglite();
await database.migrate();
const config = loadConfig({
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  SIA_DEMO: "0",
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "sia-doc-")),
});
const app = await build({ config, database, logger: false });
await app.ready();
fs.writeFileSync(out, JSON.stringify(app.swagger(), null, 2));
await app.close();
await database.close();
process.exit(0);
