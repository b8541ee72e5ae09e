import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./child-server.mjs", import.meta.url));

/** Starts a server child and resolves with {url, key, stop} once it prints its address. */
export async function startServer(kind, env = {}) {
  const child = spawn(process.execPath, [CHILD, kind], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const ready = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line));
    });
  });
  child.removeAllListeners("exit");
  return {
    ...ready,
    async stop() {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Runs a command; resolves with {code, ms, stdout, stderr}. */
export async function runCommand(cmd, args, options = {}) {
  const started = performance.now();
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const [code] = await once(child, "exit");
  return { code, ms: performance.now() - started, stdout, stderr };
}
