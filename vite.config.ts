import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const apiPort = process.env.PORT ?? "3000";

/** What is worth compressing: text, and above a packet's size. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Each text file of the build is written beside its brotli (.br) and gzip (.gz) forms, once, at build time
 * (ADR 043): the server sends the one the browser accepts (@fastify/static's preCompressed) and never
 * compresses on a request.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "sia-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/** The timesheet's page: the home page (/app/activities), loaded lazily by the admin shell. */
const TIMESHEET_PAGE = "src/timesheet/ActivitiesPage.tsx";
/** The authProvider's session check (API_ROOT of src/dataProvider/http.ts and "sessions/current"). */
const SESSION_URL = "/api/v1/sessions/current";

/**
 * Writes `activities.html`: index.html plus a `modulepreload` of the timesheet page's chunk and of every
 * chunk it imports. The server sends it on the timesheet's addresses, so the browser fetches (and compiles
 * off the main thread) the page's code alongside the main chunk, instead of after the main chunk has run
 * and asked for it. Other addresses keep index.html and do not download the timesheet.
 */
function timesheetPreload(): Plugin {
  return {
    name: "sia-timesheet-preload",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const html = bundle["index.html"];
      const page = Object.values(bundle).find(
        (c) => c.type === "chunk" && c.facadeModuleId?.replaceAll("\\", "/").endsWith(TIMESHEET_PAGE),
      );
      if (html?.type !== "asset" || page?.type !== "chunk") throw new Error(`sia-timesheet-preload: ${TIMESHEET_PAGE} sin chunk`);
      const source = String(html.source);
      const files: string[] = [];
      const visit = (file: string) => {
        const chunk = bundle[file];
        if (chunk?.type !== "chunk" || files.includes(file)) return;
        files.push(file);
        for (const dep of chunk.imports) visit(dep);
      };
      visit(page.fileName);
      const links = files
        .filter((f) => !source.includes(`/${f}"`))
        .map((f) => `    <link rel="modulepreload" crossorigin href="/${f}">`)
        .join("\n");
      // The session check the page starts first (src/timesheet/data/prefetch.ts), asked for with the HTML:
      // its answer is waiting when the main chunk has run. `crossorigin` makes it the same-origin, cors
      // request apiFetch sends, so the browser hands this response to that fetch.
      const session = `    <link rel="preload" as="fetch" crossorigin href="${SESSION_URL}">`;
      this.emitFile({
        type: "asset",
        fileName: "activities.html",
        source: source.replace("  </head>", `${session}\n${links}\n  </head>`),
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), timesheetPreload()],
  build: { outDir: "dist", sourcemap: false, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: { "/api": `http://127.0.0.1:${apiPort}`, "/healthz": `http://127.0.0.1:${apiPort}` },
  },
});
