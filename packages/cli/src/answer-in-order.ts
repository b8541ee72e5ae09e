import type { IccidClient } from "@iccid/sdk";
import type { CommandContext } from "./command-context.js";

/** One input's answer as the CLI shows it: the input as typed, and a result or the reason it has none. */
export type InputOutcome<R, E> = { input: string } & ({ ok: true; result: R } | { ok: false; error: E });

/** A batch item's answer for the input it was sent for: its result, or its error. */
export function itemOutcome<R, E>(input: string, item: { ok: true; result: R } | { ok: false; error: E }): InputOutcome<R, E> {
  return item.ok ? { input, ok: true, result: item.result } : { input, ok: false, error: item.error };
}

/** How one command reads its inputs: the offline parser, and the server's one-item and several-item calls. */
export interface InOrderReader<R, E> {
  /** The offline grammar check: a malformed input is reported with this error and never sent. */
  parse(input: string): { ok: true } | { ok: false; error: E };
  /** The answer for a single well-formed input (the one-item endpoint). */
  one(client: IccidClient, input: string): Promise<R>;
  /** The answers for several well-formed inputs, one per input and in their order (the batch endpoint). */
  many(client: IccidClient, inputs: readonly string[]): AsyncIterable<InputOutcome<R, E>>;
}

/**
 * Answers every input in argument order: a malformed one in place, from the offline parser, without a
 * request; the well-formed ones with one call when there is one, else through the batch endpoint. The
 * server is asked (and the API key looked for) only when some input is well-formed.
 */
export async function answerInOrder<R, E>(
  ctx: CommandContext,
  inputs: readonly string[],
  reader: InOrderReader<R, E>,
): Promise<InputOutcome<R, E>[]> {
  const outcomes: (InputOutcome<R, E> | undefined)[] = inputs.map((input) => {
    const parsed = reader.parse(input);
    return parsed.ok ? undefined : { input, ok: false, error: parsed.error };
  });
  const pending = inputs.filter((_, i) => outcomes[i] === undefined);
  const results: InputOutcome<R, E>[] = [];
  if (pending.length > 0) {
    const client = await ctx.apiClient();
    if (pending.length === 1) results.push({ input: pending[0]!, ok: true, result: await reader.one(client, pending[0]!) });
    else for await (const outcome of reader.many(client, pending)) results.push(outcome);
  }
  let next = 0;
  return outcomes.map((outcome) => outcome ?? results[next++]!);
}
