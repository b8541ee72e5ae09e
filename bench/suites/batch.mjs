import { luhnCheckDigit } from "../../packages/core/dist/index.js";
import { IccidDecoder } from "../../packages/server/dist/index.js";
import { abRounds, postRate } from "../lib/load.mjs";
import { startServer } from "../lib/processes.mjs";
import { row } from "../lib/table.mjs";

/** 1000 distinct valid 20-digit ICCIDs from several issuers (`seed` shifts the account numbers). */
export function thousandIccids(seed = 0) {
  const prefixes = ["894410", "894504", "8988310", "891000", "8949"];
  return Array.from({ length: 1000 }, (_, i) => {
    const prefix = prefixes[i % prefixes.length];
    const body = prefix + String(seed * 1000 + i).padStart(19 - prefix.length, "0");
    return body + luhnCheckDigit(body);
  });
}

/** ICCIDs per second that this process decodes and serialises as a batch answer: the endpoint's ceiling. */
function inProcessRate(iccids, seconds) {
  const decoder = new IccidDecoder();
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  while (performance.now() < deadline) {
    const results = iccids.map((iccid, index) => {
      const out = decoder.decode(iccid);
      return out.ok ? { index, ok: true, result: out.result } : { index, ok: false, input: iccid, error: out.error };
    });
    JSON.stringify({ results });
    done += iccids.length;
  }
  return done / ((performance.now() - started) / 1000);
}

/** The batch endpoint's ICCIDs/s vs the in-process decode-and-serialise rate of the same 1000 ICCIDs. */
export async function batchRows(context) {
  const { settings } = context;
  const iccids = thousandIccids();
  const body = JSON.stringify({ iccids });
  const server = await startServer("iccid");
  try {
    const { a, b } = await abRounds(
      settings.rounds,
      async () => 1000 * (await postRate({ url: server.url, path: "/api/v1/iccid/batch", key: server.key, body, connections: 4, seconds: settings.seconds })),
      async () => inProcessRate(iccids, settings.seconds),
    );
    context.measured.batchIccidsPerSecond = a;
    return [row("batch of 1000 (ICCIDs/s)", a, b, "ICCIDs/s vs in-process decode", "≥ 0.5")];
  } finally {
    await server.stop();
  }
}
