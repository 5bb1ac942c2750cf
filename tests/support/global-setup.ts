/**
 * Migrates one template database for the whole run; each test file then starts from a copy of it
 * (PGlite: a dumped data folder loaded in memory; PostgreSQL: CREATE DATABASE … TEMPLATE).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../../server/db/client";
import { adminUrl, withDatabase } from "./database-url";

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  const TEMPLATE_DB = `sia_test_template_${process.pid}`;
  project.provide("templateDb", TEMPLATE_DB);
  if (url) {
    const admin = await openPostgres(adminUrl(url), 1);
    await admin.pool?.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
    await admin.pool?.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    const template = await openPostgres(withDatabase(url, TEMPLATE_DB), 1);
    await template.migrate();
    await template.close();
    await admin.close();
    project.provide("templatePath", "");
    return async () => {
      const again = await openPostgres(adminUrl(url), 1);
      await again.pool?.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
      await again.close();
    };
  }
  const database = await openPglite();
  await database.migrate();
  const dump = await database.pglite?.dumpDataDir("none");
  await database.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sia-template-")), "template.tar");
  fs.writeFileSync(file, Buffer.from(await (dump as Blob).arrayBuffer()));
  project.provide("templatePath", file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templatePath: string;
    templateDb: string;
  }
}
