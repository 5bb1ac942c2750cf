/**
 * Reads the configuration, opens and migrates the database, loads reference data (and demo data on an
 * empty embedded database), then listens. `npm start` runs its build through scripts/start.mjs.
 */
import { fileURLToPath } from "node:url";
import { build } from "./app";
import { writeLocalAdminEndpoint } from "./cli/localEndpoint";
import { isClusterWorker, processCount, runPrimary, runsJobs } from "./cluster";
import { type Config, ConfigError, checkBackupDir, loadConfig, PUBLIC_DEMO_PASSWORD } from "./config";
import { createDb, type Database, DataDirLockedError } from "./db/client";
import { dbErrorReason } from "./db/errors";
import { lockPublicDemoPasswords, seedBase, seedDemo } from "./db/seed";
import { JOBS } from "./jobs";
import { startJobs } from "./jobs/runner";
import { createDocuments } from "./ports/documents";

/** The demo firm's accounts (server/db/seed/data.ts), printed at start. */
const DEMO_ACCOUNTS = [
  { email: "admin@sia.local", role: "Administrador" },
  { email: "operador@sia.local", role: "Operador" },
  { email: "finanzas@sia.local", role: "Finanzas" },
];

/** Migrations, reference data, demo data on an empty database, and the production password lock. */
async function prepare(config: Config, database: Database) {
  await database.migrate();
  await seedBase(database.db);
  const demo = config.SIA_DEMO
    ? (
        await seedDemo(database.db, {
          password: config.SIA_DEMO_PASSWORD,
          // Folders only on the drive of this installation: demo records never point into a real Google Drive.
          documents: config.DOCUMENTS_ADAPTER === "local" ? await createDocuments(config) : undefined,
        })
      ).seeded
    : false;
  // In production the public demo password never opens an account (config refuses it for new demo data;
  // this covers demo data loaded before, e.g. by a start without NODE_ENV=production).
  const locked = config.NODE_ENV === "production" ? await lockPublicDemoPasswords(database.db, PUBLIC_DEMO_PASSWORD) : [];
  for (const email of locked) {
    console.warn(
      `${email} tenía la contraseña pública de demostración: ya no puede entrar con contraseña y sus sesiones se cerraron. ` +
        (DEMO_ACCOUNTS.find((account) => account.email === email)?.role === "Administrador"
          ? "Asígnele una nueva con npm run create-admin si la cuenta se usa."
          : "Si la cuenta se usa, un administrador le asigna una contraseña nueva en Usuarios (npm run create-admin la haría administradora)."),
    );
  }
  return demo;
}

async function openDatabase(config: Config) {
  try {
    return await createDb(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** What the terminal shows once SIA answers. */
function printReady(config: Config, port: number, demo: boolean, processes: number) {
  const url = `http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${port}`;
  // Behind a proxy people type PUBLIC_URL; where the server itself listens is for whoever runs it.
  const lines = [
    "",
    config.PUBLIC_URL
      ? `SIA está listo en ${config.PUBLIC_URL.replace(/\/$/, "")}/app/activities (escucha en ${url})`
      : `SIA está listo en ${url}/app/activities`,
    `Base de datos: ${config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embebida en ${config.dataDir}`}`,
  ];
  if (processes > 1) lines.push(`Procesos del servidor: ${processes} (WEB_CONCURRENCY)`);
  if (config.SIA_DEMO) {
    lines.push(demo ? "Datos de demostración cargados." : "Datos de demostración ya presentes.");
    lines.push(`Cuentas de demostración (contraseña: SIA_DEMO_PASSWORD, por omisión «${PUBLIC_DEMO_PASSWORD}»):`);
    for (const account of DEMO_ACCOUNTS) lines.push(`  ${account.email.padEnd(22)} ${account.role}`);
  }
  console.log(lines.join("\n"));
}

/**
 * Start-up failed: a wrong configuration is told in its own words, anything else (most often a database
 * that cannot be reached or used) in one line with the driver's reason; the trace only with
 * LOG_LEVEL=debug, for whoever debugs SIA rather than installs it.
 */
export function exitWithError(error: unknown): never {
  if (error instanceof ConfigError) console.error(error.message);
  else {
    console.error(`SIA no pudo arrancar: ${dbErrorReason(error)}`);
    if (["debug", "trace"].includes(process.env.LOG_LEVEL ?? "")) console.error(error);
  }
  process.exit(1);
}

export async function main() {
  const config = loadConfig();
  checkBackupDir(config);
  const processes = processCount(config);
  if (processes > 1 && !isClusterWorker()) {
    // The primary prepares the database once, then only keeps the workers running (server/cluster.ts).
    const database = await openDatabase(config);
    const demo = await prepare(config, database).finally(() => database.close());
    const { port } = await runPrimary(fileURLToPath(import.meta.url), processes);
    printReady(config, port, demo, processes);
    return;
  }
  const database = await openDatabase(config);
  const demo = isClusterWorker() ? false : await prepare(config, database);

  const app = await build({ config, database });
  // Scheduled jobs (server/jobs: Tuesday reminder and report, hourly Garantía auto-close), checked every
  // minute: one process of the server only, never in tests.
  if (config.JOBS_ENABLED && runsJobs()) startJobs(app, JOBS);
  let removeLocalAdmin = () => {};
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: cerrando SIA`);
    removeLocalAdmin();
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ host: config.HOST, port: config.PORT });
  if (isClusterWorker()) return app;
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  // The embedded database is this process's alone: `npm run create-admin` reaches it through the server.
  if (!config.DATABASE_URL) {
    const host = ["0.0.0.0", "::", "localhost"].includes(config.HOST) ? "127.0.0.1" : config.HOST;
    removeLocalAdmin = writeLocalAdminEndpoint(config, `http://${host}:${port}`);
  }
  printReady(config, port, demo, 1);
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch(exitWithError);
}
