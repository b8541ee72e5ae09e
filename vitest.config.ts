import { defineConfig } from "vitest/config";

// Each package owns its vitest.config.ts (name, includes, setup); this file only lists them.
export default defineConfig({
  test: { projects: ["packages/*/vitest.config.ts"] },
});
