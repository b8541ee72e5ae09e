import { availableParallelism } from "node:os";
import { defineConfig, type TestProjectConfiguration } from "vitest/config";
import { sourceFirst } from "./vitest.shared.js";
import { PGBOUNCER_TEST } from "./packages/server/test-support/pgbouncer-paths.mjs";

// Each package owns its vitest.config.ts (name, includes, setup); this file lists them. With
// ICCID_TEST_POSTGRES_URL and ICCID_TEST_REDIS_URL set (CI sets both), the server's integration suite
// runs a second time on PostgreSQL with Redis rate limits, together with the scale-out tests and the
// hardening suite's PostgreSQL faults.
const projects: TestProjectConfiguration[] = [
  "packages/*/vitest.config.ts",
  "hardening/vitest.config.ts",
  "packaging/vitest.config.ts",
  // The container image: built with buildah and run (container/image.test.ts), and its compose files' variables.
  "container/vitest.config.ts",
  // The repository's own scripts (scripts/*.mjs) that have tests.
  { test: { name: "scripts", root: "./scripts", include: ["*.test.mjs"], globalSetup: ["../vitest.build-setup.ts"] } },
];
if (process.env.ICCID_TEST_POSTGRES_URL && process.env.ICCID_TEST_REDIS_URL) {
  projects.push({
    ...sourceFirst,
    test: {
      name: "server-postgres",
      root: "./packages/server",
      include: ["test/**/*.test.ts"],
      // SQLite-only by nature: the command tests use files, the fault tests open SQLite directly; the HTTP
      // timeouts and slow readers do not depend on the store.
      exclude: [
        ...["test/command.test.ts", "test/faults.test.ts", "test/metrics.test.ts", "test/operator-commands.test.ts", "test/slow-readers.test.ts", "test/slow-senders.test.ts", "test/sqlite-lock-wait.test.ts", "test/e2e/**"],
        // Left out only when `npm test` found no pgbouncer and could not install one (it says so).
        ...(process.env.ICCID_SKIP_PGBOUNCER === "1" ? [PGBOUNCER_TEST] : []),
      ],
      env: { ICCID_TEST_STORE: "postgres" },
      globalSetup: ["../../vitest.build-setup.ts"],
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  });
  projects.push({
    ...sourceFirst,
    test: {
      name: "hardening-postgres",
      root: "./hardening",
      include: ["postgres/**/*.test.ts"],
      globalSetup: ["../vitest.build-setup.ts"],
      testTimeout: 300_000,
      hookTimeout: 60_000,
      env: { HARDENING_SEED: process.env.HARDENING_SEED ?? "20261121" },
    },
  });
}

// Test files run at least two at a time, even on two cores (where vitest's default is one): most of them
// wait on real servers, PostgreSQL, Redis, Chromium and the built binaries in other processes, and each
// file has its own database, schema, Redis prefix, ports and temp folders.
export default defineConfig({ test: { projects, maxWorkers: Math.max(2, availableParallelism() - 1) } });
