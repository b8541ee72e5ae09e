/**
 * Runs `flush` once the I/O of this event-loop turn and of the next has been read: the window in which
 * work that many requests share (a group commit, one Redis call for every rate-limit increment) gathers
 * its requests. Clients that keep several requests going send them in bursts, which the server reads over
 * a turn or two, so two turns catch a burst whole where one would catch part of it. An idle server comes
 * to the next turn at once, since nothing is left to wait for, so a lone request waits no longer.
 */
export function afterTwoTurns(flush: () => void): void {
  setImmediate(() => setImmediate(flush));
}
