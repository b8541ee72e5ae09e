// CPU time of processes by pid, from the kernel's scheduler accounting: the sum over a process's threads of
// /proc/<pid>/task/<tid>/schedstat's first field, the nanoseconds it ran on a CPU (user + system). Same
// quantity as utime + stime in /proc/<pid>/stat, without that file's 10 ms ticks.
import { readdirSync, readFileSync } from "node:fs";

/** Nanoseconds process `pid` has run so far, all its live threads together; 0 once it is gone. */
export function cpuNanos(pid) {
  let total = 0;
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}

/**
 * Runs `work`; returns the microseconds of CPU each source spent meanwhile, in the order given. A source is
 * a pid, or a function returning the pids of a group of processes that may come and go (database
 * backends), summed; one seen only afterwards counts from its start, one gone afterwards is not counted.
 */
export async function cpuDuring(sources, work) {
  const pidsOf = async (source) => (typeof source === "function" ? await source() : [source]);
  const before = await Promise.all(sources.map(async (s) => new Map((await pidsOf(s)).map((pid) => [pid, cpuNanos(pid)]))));
  await work();
  return Promise.all(
    sources.map(async (s, i) => {
      let nanos = 0;
      for (const pid of await pidsOf(s)) nanos += cpuNanos(pid) - (before[i].get(pid) ?? 0);
      return nanos / 1000;
    }),
  );
}
