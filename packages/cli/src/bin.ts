#!/usr/bin/env node
import { exitWhenFlushed } from "./exit.js";
import { main } from "./program.js";

// A reader that goes away early (`iccid lookup … | head -1`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

await exitWhenFlushed(await main());
