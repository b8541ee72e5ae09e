#!/usr/bin/env node
import { endOnClosedOutput } from "./closed-output.js";
import { exitWhenFlushed } from "./exit.js";
import { main } from "./program.js";

// A reader that goes away early (`iccid lookup … | head -1`) is not an error.
endOnClosedOutput(process.stdout);

await exitWhenFlushed(await main());
