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
      // Needs PostgreSQL: run by the hardening-postgres project (root config) when CI provides one.
      exclude: ["postgres/**"],
      globalSetup: ["../vitest.build-setup.ts"],
      // A hang detector, not a speed bar: the fuzz test's 10,500 requests took 115 s on a busy 2-core machine.
      testTimeout: 300_000,
      hookTimeout: 60_000,
      env: { HARDENING_SEED: process.env.HARDENING_SEED ?? "20261121" },
    },
  }),
);
