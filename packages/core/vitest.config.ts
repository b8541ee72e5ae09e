import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";

export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "core",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Property tests of thousands of runs: ~1 s each on a busy 2-core machine, where 5 s (the default) is thin.
      testTimeout: 30_000,
    },
  }),
);
