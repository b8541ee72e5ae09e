import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";

export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "server",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Several instances on one PostgreSQL and one Redis: run by the server-postgres project (root config).
      exclude: ["test/scale-out/**"],
      // test/command.test.ts spawns the built iccid-server.
      globalSetup: ["../../vitest.build-setup.ts"],
      testTimeout: 30_000,
    },
  }),
);
