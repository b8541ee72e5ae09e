import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

// The real built `iccid-server` in its own process, so tests can kill and signal it. The path resolves the
// same from src/ (tests run against sources) and from dist/.
export const SERVER_BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Terminal output (the first start prints the owner's credentials there). */
  stderr(): string;
  stdout(): string;
  exited: Promise<number | null>;
}

const started = new Set<ChildProcess>();

/** Kills every server a test started and left running (a failed assertion skips the test's own stop). */
export function killServerProcesses(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  started.clear();
}

export interface StartOptions {
  /** 0 (the default) for an ephemeral port. */
  port?: number;
  /** More `start` flags. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
}

/** Starts `iccid-server start` on `db` and resolves once it announces its URL. */
export async function startServerProcess(db: string, options: StartOptions = {}): Promise<ServerProcess> {
  const args = ["start", "--port", String(options.port ?? 0), "--db", db, ...(options.args ?? [])];
  const child = spawn(process.execPath, [SERVER_BIN, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`iccid-server did not start: ${err}`)), 20_000);
    const onData = () => {
      const m = /"url":"(http:[^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        resolve(m[1]!);
      }
    };
    child.stdout!.on("data", onData);
    void exited.then(() => reject(new Error(`iccid-server exited: ${err}`)));
  });
  return { child, url, port: Number(new URL(url).port), stderr: () => err, stdout: () => out, exited };
}

/** The owner credentials a first start prints (stderr may trail stdout's "listening" line a little). */
export async function ownerCredentials(p: ServerProcess): Promise<{ email: string; password: string; key: string }> {
  for (let i = 0; i < 100 && !/API key: +iccid_\S+\n/.test(p.stderr()); i++) await new Promise((r) => setTimeout(r, 50));
  const text = p.stderr();
  return {
    email: /email: +(\S+)/.exec(text)![1]!,
    password: /password: +(\S+)/.exec(text)![1]!,
    key: /API key: +(iccid_\S+)/.exec(text)![1]!,
  };
}

/** Stops a server with SIGTERM and resolves with its exit code. */
export async function stopServerProcess(p: ServerProcess): Promise<number | null> {
  p.child.kill("SIGTERM");
  return p.exited;
}

/** Runs an operator command (`plan set …`, `account …`) against a database; throws when it fails. */
export function serverCommand(db: string, args: string[]): string {
  const r = spawnSync(process.execPath, [SERVER_BIN, ...args, "--db", db], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`iccid-server ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}
