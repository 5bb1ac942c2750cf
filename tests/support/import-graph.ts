/** The import graph of source files, read from the sources (static imports, re-exports, dynamic import()). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

export function resolveImport(file: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(file), spec.replace(/\.js$/, ""));
  return [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * The files a file imports (type-only imports too: they tie the designs as well); with `dynamic`, its
 * import() calls as well (a lazily loaded module still has to load).
 */
export function importsOf(file: string, { dynamic = true } = {}): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|import\(\s*"(\.[^"]+)"\s*\)/g)) {
    if (match[2] && !dynamic) continue;
    const found = resolveImport(file, match[1] ?? match[2]);
    if (found) out.push(found);
  }
  return out;
}

/** Each circle found by a depth-first walk, as "a → b → a" relative to `root`. */
export function findCycles(graph: Map<string, string[]>, root: string): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(root, f)).join(" → "));
      return;
    }
    state.set(file, "open");
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}
