/**
 * The project's folders, found from the package.json above this module, so they are the same whether the
 * server runs from its sources (tsx: server/…) or from its build (build/server/…, see scripts/start.mjs).
 */
import fs from "node:fs";
import path from "node:path";

function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "server"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No se encontró la carpeta del proyecto desde ${from}`);
  }
}

export const ROOT = projectRoot(import.meta.dirname);
/** The built browser app (vite build). */
export const DIST_DIR = path.join(ROOT, "dist");
/** Drizzle's SQL migrations. */
export const MIGRATIONS_FOLDER = path.join(ROOT, "server", "db", "migrations");
/** Files the server copies out (the contract template). */
export const TEMPLATES_DIR = path.join(ROOT, "templates");
