import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";
import { BROWSER_TESTS } from "./test/e2e/browser-tests.mjs";

export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "server",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Several instances on one PostgreSQL and one Redis: run by the server-postgres project (root config).
      // The browser tests are left out only when `npm test` found no Chromium and could not install one (it says so).
      exclude: ["test/scale-out/**", ...(process.env.ICCID_SKIP_BROWSER === "1" ? BROWSER_TESTS : [])],
      // test/command.test.ts spawns the built iccid-server.
      globalSetup: ["../../vitest.build-setup.ts"],
      // Tests that spawn the binary a few times take 20-25 s on a busy 2-core machine: a hang detector only.
      testTimeout: 60_000,
      // Set-ups start servers and Chromium: the 10 s default is thin on a busy machine.
      hookTimeout: 60_000,
      // The browser test polls the page; the 1 s default is too short for Chromium on a busy machine.
      expect: { poll: { timeout: 15_000 } },
    },
  }),
);
