import { createRequire } from "node:module";

// Read from package.json at run time so that `iccid --version` can never drift from the published version.
const pkg = createRequire(import.meta.url)("../package.json") as { version: string };

export const CLI_VERSION: string = pkg.version;
