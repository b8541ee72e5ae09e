// Preloaded into a measured process (NODE_OPTIONS=--import): on exit, writes to $BENCH_PROBE_FILE the
// process's peak resident set size as the OS counts it (getrusage ru_maxrss, bytes) and its CPU time
// (user + system, µs), as JSON.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const usage = process.resourceUsage();
  if (process.env.BENCH_PROBE_FILE) {
    writeFileSync(process.env.BENCH_PROBE_FILE, JSON.stringify({ rss: usage.maxRSS * 1024, cpu: usage.userCPUTime + usage.systemCPUTime }));
  }
});
