import { createHash } from "node:crypto";
import type { Chunk } from "./chunker.js";
import type { BatchFormat } from "./resume.js";

/**
 * The Idempotency-Key of a chunk's request, made from what the chunk is: the form asked for, the input
 * row it starts at and its ICCID cells. A run started again (`--resume` after a crash or a lost
 * connection) cuts the same chunks from the same input, so a chunk the server answered before is answered
 * again from what it kept, not charged twice; any other rows, or the same rows elsewhere in the input,
 * make another key.
 */
export function chunkIdempotencyKey(chunk: Pick<Chunk, "start" | "iccids">, format: BatchFormat): string {
  const hash = createHash("sha256").update(`${format}\n${chunk.start}\n`).update(JSON.stringify(chunk.iccids));
  return `iccid-batch-${hash.digest("base64url")}`;
}
