import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";

export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "sdk",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Real servers (scrypt logins, SQLite) and child processes: room for a busy 2-core CI machine (a hang
      // detector; 25,000-item streams took 10-13 s there with their own 120 s limit).
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
