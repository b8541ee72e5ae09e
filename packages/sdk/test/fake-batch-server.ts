import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { batchAnswer } from "./mock-api.js";

// A plain node:http stand-in for the batch endpoint, so that batchAll's concurrency can be measured at the
// socket (requests really in flight), which a MockAgent cannot show.

export interface FakeBatchServer {
  url: string;
  stats: { requests: number; inFlight: number; maxInFlight: number; items: string[][]; accepts: string[] };
  close(): Promise<void>;
}

/** A request's own answer (the default: 200 with every item answered), and how long it takes. */
export type Answer = (
  iccids: string[],
  requestNumber: number,
) => { status?: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | undefined;

export async function startFakeBatchServer(options: { delayMs?: number; answer?: Answer } = {}): Promise<FakeBatchServer> {
  const stats: FakeBatchServer["stats"] = { requests: 0, inFlight: 0, maxInFlight: 0, items: [], accepts: [] };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const number = ++stats.requests;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    res.on("close", () => stats.inFlight--);
    const iccids = (JSON.parse(raw) as { iccids: string[] }).iccids;
    stats.items.push(iccids);
    stats.accepts.push(req.headers.accept ?? "");
    const custom = options.answer?.(iccids, number);
    setTimeout(() => {
      const body = custom?.body ?? batchAnswer(raw);
      res.writeHead(custom?.status ?? 200, { "content-type": "application/json", "x-request-id": `req_${number}`, ...custom?.headers });
      res.end(JSON.stringify(body));
    }, custom?.delayMs ?? options.delayMs ?? 0);
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
