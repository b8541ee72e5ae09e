import { defineProject, mergeConfig } from "vitest/config";
import { sourceFirst } from "../vitest.shared.js";
import { CONTAINER_TEST } from "./paths.mjs";

// The container image: its build and run with buildah (slow: a debootstrap base on the first run, an image
// build each time) and the variables its compose files set. The image test is left out only when `npm
// test` found no buildah or debootstrap and could not install them (ICCID_SKIP_CONTAINER=1; it says so).
export default mergeConfig(
  sourceFirst,
  defineProject({
    test: {
      name: "container",
      include: ["*.test.ts"],
      exclude: process.env.ICCID_SKIP_CONTAINER === "1" ? [CONTAINER_TEST] : [],
      testTimeout: 120_000,
      // The set-up makes the base (a debootstrap, once per set of inputs) and builds the image.
      hookTimeout: 3_600_000,
    },
  }),
);
