import { cpuDuring } from "./cpu.mjs";

/**
 * Runs `work` and resolves with the CPU time each source (cpu.mjs: a pid or a function listing pids) spent
 * meanwhile per unit of work, in µs, in the order given: {costs: [...], rate: units per second (information only)}.
 */
export async function costsDuring(sources, units, work) {
  const started = performance.now();
  const micros = await cpuDuring(sources, work);
  return { costs: micros.map((m) => m / units), rate: units / ((performance.now() - started) / 1000) };
}

/**
 * Rounds over several contenders, one after another, in the given order and reversed every other round
 * (A B C D, D C B A, …): drift and other processes' load fall on all of them, and neighbours in the list
 * (a build and the other build, a figure and its floor) are always measured back to back. `warmups`
 * unrecorded rounds first. (Run at the same time instead, they change each other's figures: a server that
 * shares the cores with a second busy server wakes up for fewer requests at a time and pays more per
 * request.) `contenders` maps names to functions resolving with figures; returns the figures of every
 * round: [{name: figures}, …].
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

export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
