import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// Tests that spawn the real bins (iccid, iccid-server) need dist/. Every project that does lists this file
// as a globalSetup; global setups run in vitest's main process, so a process-wide promise builds once per
// run. CI builds just before testing and sets ICCID_SKIP_BUILD=1.
const key = Symbol.for("iccid.build-once");
const root = fileURLToPath(new URL(".", import.meta.url));

export default async function setup(): Promise<void> {
  if (process.env.ICCID_SKIP_BUILD === "1") return;
  const g = globalThis as { [key]?: true };
  if (g[key]) return;
  execFileSync("pnpm", ["-s", "build"], { cwd: root, stdio: "inherit" });
  g[key] = true;
}
