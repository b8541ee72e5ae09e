// Where the bench's processes run. With two cores or more, and taskset (util-linux) on the machine, the
// servers measured run on the last core and everything that loads them (this process, its load generator,
// its client children and the CLI it runs) on the others: a server's CPU time then counts its own work,
// not the cache misses and migrations of sharing a core with the load generator parsing its answers.
// PostgreSQL and Redis are the machine's own processes and stay where the kernel puts them.
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";

function canPin() {
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return availableParallelism() >= 2;
  } catch {
    return false;
  }
}

const last = availableParallelism() - 1;
/** The cores of the servers and of their load, as taskset lists; null when the bench cannot pin. */
export const PLACEMENT = canPin() ? { servers: String(last), load: last === 1 ? "0" : `0-${last - 1}` } : null;

// This process and every thread and child it starts from now on (children inherit it) go on the load's cores.
if (PLACEMENT) execFileSync("taskset", ["-a", "-p", "-c", PLACEMENT.load, String(process.pid)], { stdio: "ignore" });

/** The command line that runs `argv` on the servers' core (as it is when the bench cannot pin). */
export function onServerCore(argv) {
  return PLACEMENT ? ["taskset", "-c", PLACEMENT.servers, ...argv] : argv;
}

/** One line for the report: where the processes ran. */
export function placementNote() {
  return PLACEMENT
    ? `servers pinned to core ${PLACEMENT.servers}, the load generator and clients to ${PLACEMENT.load} (taskset)`
    : "processes not pinned (one core, or no taskset): servers share their cores with the load generator";
}
