import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiPort = process.env.PORT ?? "3000";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", sourcemap: false, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: { "/api": `http://127.0.0.1:${apiPort}`, "/healthz": `http://127.0.0.1:${apiPort}` },
  },
});
