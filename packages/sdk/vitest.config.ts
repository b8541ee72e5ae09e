import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";

export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "sdk",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Real servers (scrypt logins, SQLite) and child processes: room for a busy 2-core CI machine.
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  }),
);
