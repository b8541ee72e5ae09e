import { defineProject } from "vitest/config";

// The published shape: each package packed with `pnpm pack` and installed with npm into an empty
// project, as a user outside this repository would. Slow (npm fetches the dependencies and compiles
// better-sqlite3 when no prebuilt binary can be fetched), so it runs once per suite, in its own project.
export default defineProject({
  test: {
    name: "packaging",
    include: ["**/*.test.ts"],
    globalSetup: ["../vitest.build-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 900_000,
  },
});
