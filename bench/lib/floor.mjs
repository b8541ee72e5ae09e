// A floor in a child process of its own: the least a request or a batch can cost, measured like the
// servers (its own CPU time) and reported beside them, never judged. argv[2]:
// - "koa-echo": a bare Koa + @koa/router endpoint that reads the JSON body and writes it back;
// - "http-echo": the same with node:http alone;
// - "decode": no server; on the IPC message {batches: n} it does n times the plain in-process work of a
//   batch of 1000 ICCIDs with the head's decoder (BENCH_SERVER_INDEX): decode each, JSON.stringify the
//   answer; and answers {done: n}.
// Prints one JSON line {url} when ready; stops on SIGTERM.
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { Router } from "@koa/router";
import Koa from "koa";
import { iccidRange } from "./iccids.mjs";

const kind = process.argv[2];
let server;

async function listen(handler) {
  server = createServer(handler);
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` }));
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

if (kind === "koa-echo") {
  const app = new Koa();
  const router = new Router();
  router.post("/api/v1/iccid/lookup", async (ctx) => {
    ctx.body = await readBody(ctx.req);
  });
  app.use(router.routes());
  await listen(app.callback());
} else if (kind === "http-echo") {
  await listen(async (req, res) => {
    const body = JSON.stringify(await readBody(req));
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
} else if (kind === "decode") {
  const { IccidDecoder } = await import(pathToFileURL(process.env.BENCH_SERVER_INDEX).href);
  const decoder = new IccidDecoder();
  const iccids = iccidRange(0, 1000);
  process.on("message", ({ batches }) => {
    for (let n = 0; n < batches; n++) {
      const results = iccids.map((iccid, index) => {
        const out = decoder.decode(iccid);
        return out.ok ? { index, ok: true, result: out.result } : { index, ok: false, input: iccid, error: out.error };
      });
      JSON.stringify({ results });
    }
    process.send({ done: batches });
  });
  console.log(JSON.stringify({ url: "" }));
} else {
  throw new Error(`unknown floor ${kind}`);
}

process.once("SIGTERM", () => {
  server?.close();
  process.exit(0);
});
