import { defineConfig } from "vitest/config";

/**
 * `npm run test:reliability` (issue 11): the real server as a child process, killed, cut off from its
 * database, loaded and backed up. Slower than `npm test`, so a suite of its own; one file at a time (each
 * spawns servers and counts the machine's memory), generous timeouts for a loaded 2-core CI machine.
 */
export default defineConfig({
  test: {
    include: ["tests/reliability/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
    environment: "node",
  },
});
