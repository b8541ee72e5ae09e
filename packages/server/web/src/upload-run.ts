import { emptyTally } from "./answer-tally.js";
import type { RunDone, UploadSource, WorkerMessage } from "./upload-protocol.js";

// One run of the upload worker, seen from the page: it starts the worker (a module of our own origin, as
// the page's CSP wants), hands on what the worker says, and ends the worker when the run is over.

export interface RunEvents {
  onProgress(rows: number, bytes: number, totalBytes: number): void;
  onDone(done: RunDone): void;
}

export class UploadRun {
  readonly #worker = new Worker("/account/assets/upload-worker.js", { type: "module", name: "upload" });

  constructor(source: UploadSource, events: RunEvents) {
    this.#worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.type === "progress") events.onProgress(message.rows, message.bytes, message.totalBytes);
      else if (message.type === "done") {
        this.#worker.terminate();
        events.onDone(message);
      }
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#worker.terminate();
      const stop = { reason: "failed", detail: `The upload stopped: ${event.message || "its worker failed"}.` } as const;
      events.onDone({ type: "done", csv: new Blob([]), tally: emptyTally(), rows: [], stop });
    };
    this.#worker.postMessage({ type: "start", source });
  }

  /** Asks for no new chunk; the one in flight is awaited and kept, then the run ends as done. */
  cancel(): void {
    this.#worker.postMessage({ type: "cancel" });
  }
}
