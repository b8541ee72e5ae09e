// Preloaded into a measured process (NODE_OPTIONS=--import): on exit, writes the process's peak resident
// set size as the OS counts it (getrusage ru_maxrss) to $BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
