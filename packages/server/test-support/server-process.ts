import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

// The real built `iccid-server` in its own process, so tests can kill and signal it.
export const SERVER_BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Terminal output (the first start prints the owner's credentials there). */
  stderr(): string;
  stdout(): string;
  exited: Promise<number | null>;
  /** The first match of `pattern` in a stream's output, now or later; rejects once the process ends without one. */
  waitForOutput(stream: "stdout" | "stderr", pattern: RegExp): Promise<RegExpExecArray>;
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

/**
 * Starts `iccid-server start` on `db` and resolves once it announces its URL. No timer of its own: on a
 * busy machine a start can be slow, and the test's timeout bounds it (killServerProcesses cleans up).
 */
export async function startServerProcess(db: string, options: StartOptions = {}): Promise<ServerProcess> {
  const args = ["start", "--port", String(options.port ?? 0), "--db", db, ...(options.args ?? [])];
  const child = spawn(process.execPath, [SERVER_BIN, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  const text = { stdout: "", stderr: "" };
  child.stdout!.on("data", (d) => (text.stdout += d));
  child.stderr!.on("data", (d) => (text.stderr += d));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  // "close" comes after the last output of both streams: nothing more can match after it.
  const closed = once(child, "close").catch(() => undefined);
  const waitForOutput = (stream: "stdout" | "stderr", pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text[stream]);
        if (match) {
          child[stream]!.off("data", check);
          resolve(match);
        }
        return match;
      };
      if (check()) return;
      child[stream]!.on("data", check);
      void closed.then(() => check() ?? reject(new Error(`iccid-server ended without ${pattern} on ${stream}: ${text.stderr}`)));
    });
  const url = (await waitForOutput("stdout", /"url":"(http:[^"]+)"/))[1]!;
  return { child, url, port: Number(new URL(url).port), stderr: () => text.stderr, stdout: () => text.stdout, exited, waitForOutput };
}

/** The owner credentials a first start prints on stderr (which may trail stdout's "listening" line). */
export async function ownerCredentials(p: ServerProcess): Promise<{ email: string; password: string; key: string }> {
  await p.waitForOutput("stderr", /API key: +iccid_\S+\n/);
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
