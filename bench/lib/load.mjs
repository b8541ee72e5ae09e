import { cpuDuring } from "./cpu.mjs";

/**
 * The CPU time the server process (`server.pid`) spends on `load.amount` requests of `load` (sent by its
 * generator, `server.post`), per `perRequest` units of work: { cost: µs per unit, rate: units per second
 * (information only) }.
 */
export async function serverCost(server, load, perRequest = 1) {
  let rate = 0;
  const [micros] = await cpuDuring([server.pid], async () => {
    rate = await server.post(load);
  });
  return { cost: micros / (load.amount * perRequest), rate: rate * perRequest };
}

/**
 * Rounds over several contenders, one after another, in the given order and reversed every other round
 * (A B C D, D C B A, …): drift and other processes' load fall on all of them, and neighbours in the list
 * (a figure and its baseline) are always measured back to back. `warmups` unrecorded rounds first.
 * (Run at the same time instead, they change each other's figures: a server that shares the cores with a
 * second busy server wakes up for fewer requests at a time and pays more per request.) `contenders` maps
 * names to functions resolving with figures; returns the figures of every round: [{name: figures}, …].
 */
export async function rounds(count, contenders, warmups = 1) {
  const names = Object.keys(contenders);
  const once = async (round) => {
    const figures = {};
    for (const name of round % 2 ? [...names].reverse() : names) figures[name] = await contenders[name]();
    return figures;
  };
  for (let round = 0; round < warmups; round++) await once(round);
  const all = [];
  for (let round = 0; round < count; round++) all.push(await once(round));
  return all;
}

/** The median over rounds of `figure(round)`. */
export function medianOver(all, figure) {
  return median(all.map(figure));
}

export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
