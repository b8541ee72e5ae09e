import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";

export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "server",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // test/command.test.ts spawns the built iccid-server.
      globalSetup: ["../../vitest.build-setup.ts"],
      testTimeout: 30_000,
    },
  }),
);
