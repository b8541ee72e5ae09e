import { defineConfig } from "vitest/config";

// Tests run against sources: the "source" export condition maps each @iccid/* package to its src/.
export const sourceFirst = defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
});
