import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";

// Unit tests (src/**) run against sources; end-to-end tests (test/**) spawn the built binary, which the
// shared global setup builds first (once per vitest run) so that they test what users run.
export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "cli",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      globalSetup: ["../../vitest.build-setup.ts"],
      // Each test spawns the binary several times (1-2 s apiece on a busy 2-core machine; 26 s seen for
      // one test): a hang detector, with room for that.
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  }),
);
