import { abRounds, postRate } from "../lib/load.mjs";
import { startServer } from "../lib/processes.mjs";
import { row } from "../lib/table.mjs";

const BODY = JSON.stringify({ iccid: "89441000000000000018" });

/** Single lookup through the whole pipeline vs a bare Koa + router JSON echo, each in its own process. */
export async function lookupRows({ settings }) {
  const [iccid, echo] = await Promise.all([startServer("iccid"), startServer("echo")]);
  try {
    const load = (server) => () =>
      postRate({ url: server.url, path: "/api/v1/iccid/lookup", key: server.key, body: BODY, connections: 10, seconds: settings.seconds });
    const { a, b } = await abRounds(settings.rounds, load(iccid), load(echo));
    return [row("single lookup, full pipeline (req/s)", a, b, "req/s vs Koa echo", "≥ 0.8")];
  } finally {
    await Promise.all([iccid.stop(), echo.stop()]);
  }
}
