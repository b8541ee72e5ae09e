import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../../vitest.shared.js";

export default mergeConfig(
  sourceFirst,
  defineProject({ test: { name: "core", include: ["src/**/*.test.ts", "test/**/*.test.ts"] } }),
);
