// The image's HEALTHCHECK (`node /app/healthcheck.mjs`): exits 0 while the server in this container answers
// GET /readyz with 200 (it listens and its store takes writes; a silent Redis is still 200, "degraded"),
// 1 otherwise, saying why on stderr (docker inspect shows it). It asks the address the server binds,
// ICCID_HOST and ICCID_PORT, as the server reads them; a wildcard address is asked on loopback.
const host = process.env.ICCID_HOST ?? "127.0.0.1";
const port = process.env.ICCID_PORT ?? "8080";
const wildcard = host === "0.0.0.0" || host === "::" || host === "";
const target = wildcard ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
const url = `http://${target}:${port}/readyz`;
try {
  const answer = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const body = await answer.text();
  if (answer.status !== 200) {
    process.stderr.write(`${url} answered ${answer.status}: ${body.slice(0, 300)}\n`);
    process.exit(1);
  }
} catch (error) {
  process.stderr.write(`${url}: ${error.cause?.code ?? error.message}\n`);
  process.exit(1);
}
