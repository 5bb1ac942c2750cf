/** `npm start`: builds the browser app when its sources are newer than dist/, then starts the server. */
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const distIndex = path.join(root, "dist", "index.html");

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const sources = ["src", "index.html", "vite.config.ts", "CHANGELOG.md", "package.json"].map((p) => path.join(root, p));
const built = fs.statSync(distIndex, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (!built || Math.max(...sources.map(newestMtime)) > built) {
  console.log("Compilando la interfaz (vite build)…");
  const { build } = await import("vite");
  await build({ root, logLevel: "warn" });
}
const { main } = await import("./main");
await main();
