// For tests that bound a process's memory: its young generation held at 16 MiB semi-spaces, Node 20's
// default. Node 22 and 24 let it grow larger (on Node 24 an audit listing of 220,000 events peaked 70 MiB
// above its first page by default, 38 MiB with this), which is garbage not yet collected, not memory the
// program holds; with the flag a bound measures the program on every Node.
export const FIXED_YOUNG_GENERATION = "--max-semi-space-size=16";

/** NODE_OPTIONS for a child whose memory a test bounds: the parent's, with FIXED_YOUNG_GENERATION. */
export function boundedMemoryNodeOptions(): string {
  return [process.env.NODE_OPTIONS, FIXED_YOUNG_GENERATION].filter(Boolean).join(" ");
}
