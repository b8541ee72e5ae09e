// Stream a large list of ICCIDs through the batch endpoint with bounded memory, results in input order.
//
//   node packages/sdk/scripts/run-example.mjs examples/sdk-stream.ts sims.txt > results.csv
//   some-producer | node packages/sdk/scripts/run-example.mjs examples/sdk-stream.ts - > results.csv
//   node packages/sdk/scripts/run-example.mjs examples/sdk-stream.ts          # 10,000 generated numbers
//
// One ICCID per line in; CSV out on stdout; progress and the summary on stderr.
import { createReadStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { IccidClient, isAPIError, luhnCheckDigit } from "@iccid/sdk";

/** Lines of a file or stdin, read lazily: batchAll pulls only as fast as results are written. */
function linesOf(path: string): AsyncIterable<string> {
  return createInterface({ input: path === "-" ? process.stdin : createReadStream(path), crlfDelay: Infinity });
}

/** Demo input: valid UK-prefixed ICCIDs, with a malformed entry every 500 to show offline failures. */
function* generated(count: number): Generator<string> {
  for (let i = 0; i < count; i++) {
    if (i % 500 === 499) {
      yield `89-bad-${i}`;
      continue;
    }
    const body = `894410${String(i).padStart(13, "0")}`;
    yield body + luhnCheckDigit(body);
  }
}

const csv = (value: string | number | boolean | null | undefined) => {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

async function write(line: string): Promise<void> {
  if (!process.stdout.write(line)) await once(process.stdout, "drain"); // respect a slow reader of stdout
}

const path = process.argv[2];
const source = path ? linesOf(path) : generated(10_000);
const client = new IccidClient();
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());

try {
  await write("index,input,iccid,valid,country,issuer,error\n");
  const items = client.iccid.batchAll(source, {
    concurrency: 4,
    signal: controller.signal,
    onProgress: (p) => process.stderr.write(`\r${p.done} done, ${p.failed} failed, ${p.requests} requests`),
  });
  for await (const item of items) {
    const row = item.ok
      ? [item.index, item.result.input, item.result.iccid, item.result.valid, item.result.country?.iso2, item.result.issuer?.name, ""]
      : [item.index, item.input, "", "", "", "", item.error.code];
    await write(`${row.map(csv).join(",")}\n`);
  }
  process.stderr.write("\nfinished\n");
} catch (error) {
  // Items already written are a prefix of the input: a rerun can skip that many lines.
  process.stderr.write(`\nstopped: ${isAPIError(error) || error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await client.close();
}
