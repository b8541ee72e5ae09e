// The image test, as a path from container/: the container project leaves it out when there is no buildah
// or debootstrap (ICCID_SKIP_CONTAINER=1) and scripts/test.mjs names it when it says so; both take this
// name, so the test is neither left out unsaid nor run without its tools.
export const CONTAINER_TEST = "image.test.ts";
export { BUILDAH, DEBOOTSTRAP } from "./buildah.mjs";
