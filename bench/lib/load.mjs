import autocannon from "autocannon";

/** Requests per second that autocannon gets from one POST target for `seconds`. */
export async function postRate({ url, path, key, body, connections, seconds }) {
  const result = await autocannon({
    url: `${url}${path}`,
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body,
    connections,
    duration: seconds,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${url}${path}: ${failures} failed requests of ${result.requests.total}`);
  return result.requests.total / seconds;
}

/** Alternating A/B rounds (order swapped every round); returns the medians. */
export async function abRounds(rounds, a, b) {
  const as = [];
  const bs = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return { a: median(as), b: median(bs), as, bs };
}

export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
