// Preloaded into a command a test runs (node --require): on exit, its peak resident memory on stderr, in KiB.
process.on("exit", () => require("node:fs").writeSync(2, `\nmax-rss-kib ${process.resourceUsage().maxRSS}\n`));
