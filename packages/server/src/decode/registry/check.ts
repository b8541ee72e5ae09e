// Build step (`pnpm build` runs it after tsc): merges the registry's sources and fails the build on a
// conflict no row resolves, so a bad data change never reaches a server start.
import { performance } from "node:perf_hooks";
import { buildRegistry } from "./registry.js";

const started = performance.now();
try {
  const registry = buildRegistry();
  const byOrigin = new Map<string, number>();
  for (const entry of registry.entries) byOrigin.set(entry.origin, (byOrigin.get(entry.origin) ?? 0) + 1);
  const counts = [...byOrigin].map(([origin, n]) => `${origin} ${n}`).join(", ");
  process.stdout.write(`issuer registry ${registry.edition}: ${counts} (${(performance.now() - started).toFixed(0)} ms)\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
