import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3199);
const DATABASE = process.env.E2E_DATABASE_URL ? `DATABASE_URL=${process.env.E2E_DATABASE_URL} SIA_DEMO=1` : "";

/** E2E in Debian's Chromium (never a downloaded browser) against the built app on a fresh embedded database. */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/e2e.json" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: "es-MX",
    timezoneId: "America/Mexico_City",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    // E2E_DATABASE_URL: the same walks against a PostgreSQL database (empty; the demo firm is loaded there).
    command: `rm -rf .e2e-data && ${DATABASE} DATA_DIR=.e2e-data JOBS_ENABLED=0 PORT=${PORT} LOG_LEVEL=warn LOGIN_MAX_FAILURES=50 node scripts/start.mjs`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
  },
});
