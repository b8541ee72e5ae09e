// `npm start` / `pnpm start`: from a fresh clone with only Node and npm, fetch pnpm if needed, install,
// make sure better-sqlite3 is built for this Node (rebuilding it, saying so, after a switch of Node),
// build what is stale (nothing, on a restart), then run `iccid-server start` with any extra arguments
// (`npm start -- --port 9000`; ICCID_PORT and the other ICCID_* variables apply as usual).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ensureNative } from "./native-module.mjs";
import { childEnv, ensureBuilt, ensureInstalled, relay, ROOT } from "./toolchain.mjs";

ensureInstalled();
ensureNative();
ensureBuilt(["core", "server"]);
const server = spawn(process.execPath, [join(ROOT, "packages/server/dist/bin.js"), "start", ...process.argv.slice(2)], {
  cwd: ROOT,
  env: childEnv(),
  stdio: "inherit",
});
// npm answers a SIGTERM by ending itself and the shell it ran this script in, which does not pass the signal
// on: once this process is orphaned so (its parent gone), the server is stopped as that SIGTERM would have
// stopped it, and this process ends with it (relay's exit code).
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  server.kill("SIGTERM");
}, 250);
server.on("exit", () => clearInterval(orphaned));
process.exitCode = await relay(server);
