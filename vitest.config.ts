import { defineConfig, type TestProjectConfiguration } from "vitest/config";

// Each package owns its vitest.config.ts (name, includes, setup); this file only lists them. With
// ICCID_TEST_POSTGRES_URL set, the server's integration suite runs a second time on PostgreSQL (and on
// Redis rate limits when ICCID_TEST_REDIS_URL is set too).
const projects: TestProjectConfiguration[] = ["packages/*/vitest.config.ts"];
if (process.env.ICCID_TEST_POSTGRES_URL) {
  projects.push({
    extends: "./packages/server/vitest.config.ts",
    test: {
      name: "server-postgres",
      root: "./packages/server",
      include: ["test/**/*.test.ts"],
      // SQLite-only by nature: the command tests use files, the fault tests open SQLite directly.
      exclude: ["test/command.test.ts", "test/faults.test.ts", "test/e2e/**"],
      env: { ICCID_TEST_STORE: "postgres" },
    },
  });
}

export default defineConfig({ test: { projects } });
