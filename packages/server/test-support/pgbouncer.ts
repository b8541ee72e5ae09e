import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGBOUNCER } from "./pgbouncer-paths.mjs";
import { freePort, onPort } from "./free-port.js";

// `npm test` installs Debian's pgbouncer when it may, as it does Chromium.

/** A PgBouncer of a test's own, in front of the PostgreSQL at a URL, on a free loopback port. */
export interface PgBouncer {
  port: number;
  /** `target` with its host and port replaced by the pooler's: the same user, password and database. */
  url(target: string): string;
  /** What pgbouncer has logged so far. */
  log(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills every pgbouncer a test started and left running. */
export function killPgBouncers(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/**
 * Starts pgbouncer in `mode` in front of the PostgreSQL of `target` (any database of it, as the client
 * names it), clients let in without a password and the server logged in to as `target`'s user. It will
 * not run as root: as root it runs as `nobody`, its files readable by all (there is no secret in them
 * beyond the test database's password).
 */
export async function startPgBouncer(target: string, options: { mode?: "transaction" | "session"; poolSize?: number } = {}): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER)) {
    throw new Error(`No pgbouncer at ${PGBOUNCER}: run \`apt-get install -y pgbouncer\` (or set ICCID_PGBOUNCER to a pgbouncer binary).`);
  }
  const { hostname, port: targetPort, username, password } = new URL(target);
  const user = decodeURIComponent(username || "postgres");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "iccid-pgbouncer-"));
  chmodSync(dir, 0o755);
  const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
  writeFileSync(join(dir, "users.txt"), `${quoted(user)} ${quoted(decodeURIComponent(password))}\n`, { mode: 0o644 });
  const ini = [
    "[databases]",
    `* = host=${hostname.replace(/^\[|\]$/g, "")} port=${targetPort || 5432}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${join(dir, "users.txt")}`,
    `pool_mode = ${options.mode ?? "transaction"}`,
    `default_pool_size = ${options.poolSize ?? 8}`,
    "max_client_conn = 500",
    "ignore_startup_parameters = extra_float_digits",
  ].join("\n");
  writeFileSync(join(dir, "pgbouncer.ini"), `${ini}\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const nobody = asRoot ? { uid: Number(spawnSync("id", ["-u", "nobody"], { encoding: "utf8" }).stdout), gid: Number(spawnSync("id", ["-g", "nobody"], { encoding: "utf8" }).stdout) } : {};
  const child = spawn(PGBOUNCER, [join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"], ...nobody });
  running.add(child);
  let output = "";
  const collect = (chunk: Buffer) => (output += chunk);
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  await new Promise<void>((resolve, reject) => {
    const ready = () => output.includes(`listening on 127.0.0.1:${port}`) && resolve();
    child.stdout!.on("data", ready);
    child.stderr!.on("data", ready);
    child.once("exit", () => reject(new Error(`pgbouncer ended before it listened: ${output}`)));
  });
  return {
    port,
    url: (of: string) => onPort(of, port),
    log: () => output,
    stop: async () => {
      running.delete(child);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM"); // an immediate shutdown: the servers in front of it are stopped by now
        await once(child, "exit");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
