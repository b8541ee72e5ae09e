import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** Builds the binary the end-to-end tests spawn (set ICCID_CLI_SKIP_BUILD=1 when dist/ is fresh). */
export default function setup(): void {
  if (process.env.ICCID_CLI_SKIP_BUILD) return;
  execFileSync("pnpm", ["--filter", "@iccid/core", "--filter", "@iccid/sdk", "--filter", "@iccid/cli", "run", "build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
