import { defineConfig } from "vitest/config";

// Tests run against sources: the "source" export condition maps each @iccid/* package to its src/.
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    projects: [
      { extends: true, test: { name: "core", include: ["packages/core/**/*.test.ts"] } },
      { extends: true, test: { name: "server", include: ["packages/server/**/*.test.ts"] } },
      { extends: true, test: { name: "sdk", include: ["packages/sdk/**/*.test.ts"] } },
      { extends: true, test: { name: "cli", include: ["packages/cli/**/*.test.ts"] } },
    ],
  },
});
