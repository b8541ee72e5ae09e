/**
 * Retries `check` until it passes. The deadline only guards against a hang: what the tests wait for (a
 * server applying a change it polls for every second) has no time bound worth asserting on a busy machine.
 */
export async function eventually(check: () => Promise<void>, deadlineMs = 20_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
