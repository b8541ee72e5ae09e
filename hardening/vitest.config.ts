import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../vitest.shared.js";

// The hardening suite: bad input, faults and abuse against real servers, clients and binaries. Seeded
// (HARDENING_SEED, default below) so that a failure reproduces.
export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "hardening",
      include: ["**/*.test.ts"],
      globalSetup: ["../vitest.build-setup.ts"],
      testTimeout: 120_000,
      hookTimeout: 60_000,
      env: { HARDENING_SEED: process.env.HARDENING_SEED ?? "20261121" },
    },
  }),
);
