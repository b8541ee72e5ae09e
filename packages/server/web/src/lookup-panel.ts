import { CsvLayoutError, detectCsvLayout, type CsvLayout } from "@iccid/core/grammar";
import { api, ApiProblem, describeProblem } from "./api.js";
import { resultsView, stopWords } from "./batch-results.js";
import { announce, byId, h, showError } from "./dom.js";
import { answerCard, notAnIccidCard } from "./lookup-card.js";
import { formatCount, plural } from "./format.js";
import type { RunDone } from "./upload-protocol.js";
import { fileRecords, readHead, UnreadableFile } from "./upload-records.js";
import { UploadRun } from "./upload-run.js";

const MAX_ROWS = 1_000_000;

/** The head of a file, read as the upload reads it (UTF-8 or UTF-16; a file not text is refused), then closed. */
async function headRecords(file: File): Promise<string[][]> {
  const blocks = fileRecords(file, { bytes: 0, notUtf8: 0 });
  try {
    return await readHead(blocks);
  } finally {
    await blocks.return(undefined);
  }
}

/**
 * The Look up card: one ICCID answered as a card, many (pasted, or a CSV file) through the upload worker
 * with a progress bar and Cancel, then their counts, first rows and the answers file.
 */
export class LookupPanel {
  readonly #form = byId<HTMLFormElement>("lookup-form");
  readonly #iccids = byId<HTMLTextAreaElement>("lookup-iccids");
  readonly #submit = byId<HTMLButtonElement>("lookup-submit");
  readonly #uploadForm = byId<HTMLFormElement>("upload-form");
  readonly #file = byId<HTMLInputElement>("upload-file");
  readonly #columnField = byId("upload-column-field");
  readonly #column = byId<HTMLSelectElement>("upload-column");
  readonly #uploadSubmit = byId<HTMLButtonElement>("upload-submit");
  readonly #progress = byId("upload-progress");
  readonly #bar = byId<HTMLProgressElement>("upload-bar");
  readonly #barLabel = byId("upload-bar-label");
  readonly #cancel = byId<HTMLButtonElement>("upload-cancel");
  readonly #error = byId("lookup-error");
  readonly #answer = byId("lookup-answer");
  #run: UploadRun | undefined;

  /**
   * `sessionLost` takes over when a call failed because the session ended, and then returns true;
   * `charged` is told after lookups were made (the usage card follows).
   */
  constructor(
    private readonly sessionLost: (error: unknown) => boolean,
    private readonly charged: () => void,
  ) {
    this.#form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.#lookUpText();
    });
    this.#file.addEventListener("change", () => void this.#fileChosen());
    this.#uploadForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#lookUpFile();
    });
    this.#cancel.addEventListener("click", () => {
      this.#cancel.disabled = true;
      this.#barLabel.textContent = "Cancelling after the rows asked for…";
      this.#run?.cancel();
    });
  }

  clear(): void {
    this.#run?.cancel();
    this.#run = undefined;
    this.#form.reset();
    this.#uploadForm.reset();
    this.#columnField.hidden = true;
    this.#uploadSubmit.hidden = true;
    this.#progress.hidden = true;
    this.#busy(false);
    this.#answer.replaceChildren();
    showError(this.#error, null);
  }

  #busy(busy: boolean): void {
    this.#submit.disabled = busy;
    this.#uploadSubmit.disabled = busy;
    this.#file.disabled = busy;
  }

  async #lookUpText(): Promise<void> {
    const lines = this.#iccids.value.split(/\r\n|\n|\r/).filter((line) => line.trim() !== "");
    showError(this.#error, null);
    if (lines.length === 0) {
      showError(this.#error, "Type or paste an ICCID first: one number, or many, one a line.");
      this.#iccids.focus();
      return;
    }
    if (lines.length > MAX_ROWS) {
      showError(this.#error, `That is ${formatCount(lines.length)} lines; up to ${formatCount(MAX_ROWS)} at a time.`);
      return;
    }
    if (lines.length > 1) {
      this.#start({ kind: "lines", lines }, "iccid-answers.csv", lines.length);
      return;
    }
    const iccid = lines[0]!;
    this.#busy(true);
    try {
      const result = await api.lookup(iccid);
      this.#answer.replaceChildren(answerCard(result));
      announce(`${result.valid ? "Valid" : "Not valid"}. ${result.country?.name ?? "Country not known"}. ${result.issuer?.name ?? "Issuer not known"}.`);
      this.charged();
    } catch (error) {
      if (error instanceof ApiProblem && error.code === "invalid_input") {
        this.#answer.replaceChildren(notAnIccidCard(iccid, error.errors[0]?.detail ?? error.detail));
        announce(`Not an ICCID: ${error.errors[0]?.detail ?? error.detail}.`);
      } else if (!this.sessionLost(error)) {
        showError(this.#error, `Could not look it up. ${describeProblem(error)}`);
      }
    } finally {
      this.#busy(false);
    }
  }

  /** A file was chosen: its columns are offered, the one `iccid batch` would take selected. */
  async #fileChosen(): Promise<void> {
    showError(this.#error, null);
    const file = this.#file.files?.[0];
    this.#columnField.hidden = true;
    this.#uploadSubmit.hidden = !file;
    if (!file) return;
    let head: string[][];
    try {
      head = await headRecords(file);
    } catch (error) {
      if (!(error instanceof UnreadableFile)) throw error;
      showError(this.#error, error.message);
      this.#uploadSubmit.hidden = true;
      return;
    }
    const [first, second] = head;
    if (!first) {
      showError(this.#error, `${file.name} holds no rows.`);
      this.#uploadSubmit.hidden = true;
      return;
    }
    let found: CsvLayout | undefined;
    try {
      found = detectCsvLayout(first, second, undefined);
    } catch (error) {
      if (!(error instanceof CsvLayoutError)) throw error;
    }
    const names = found?.columns ?? first.map((cell, i) => cell.trim() || `column_${i + 1}`);
    this.#column.replaceChildren(
      found
        ? h("option", { value: "" }, `Found: ${names[found.iccidIndex]} (column ${found.iccidIndex + 1})`)
        : h("option", { value: "", disabled: true, selected: true }, "Pick the column that holds the ICCIDs"),
      ...names.map((name, i) => h("option", { value: String(i + 1) }, `Column ${i + 1}: ${name.length > 40 ? `${name.slice(0, 40)}…` : name}`)),
    );
    this.#column.value = "";
    this.#columnField.hidden = false;
    if (!found) showError(this.#error, "Which column holds the ICCIDs? Pick it below.");
  }

  #lookUpFile(): void {
    const file = this.#file.files?.[0];
    if (!file) {
      showError(this.#error, "Choose a CSV file first.");
      this.#file.focus();
      return;
    }
    if (this.#column.selectedOptions[0]?.disabled) {
      showError(this.#error, "Pick the column that holds the ICCIDs first.");
      this.#column.focus();
      return;
    }
    showError(this.#error, null);
    const column = this.#column.value || undefined;
    this.#start({ kind: "file", file, ...(column !== undefined && { column }) }, `${file.name.replace(/\.[^.]*$/, "")}-answers.csv`, 0);
  }

  /** Starts the worker on many rows; `lines` is their count when known up front (pasted), else 0. */
  #start(source: ConstructorParameters<typeof UploadRun>[0], fileName: string, lines: number): void {
    this.#busy(true);
    this.#answer.replaceChildren();
    this.#progress.hidden = false;
    this.#cancel.disabled = false;
    this.#bar.value = 0;
    this.#barLabel.textContent = "Looking up…";
    this.#cancel.focus();
    this.#run = new UploadRun(source, {
      onProgress: (rows, bytes, totalBytes) => {
        this.#bar.value = lines > 0 ? rows / lines : totalBytes > 0 ? bytes / totalBytes : 0;
        if (!this.#cancel.disabled) this.#barLabel.textContent = `Looked up ${plural(rows, "row", "rows")}…`;
      },
      onDone: (done) => this.#done(done, fileName),
    });
  }

  #done({ csv, tally, rows, stop, note }: RunDone, fileName: string): void {
    this.#run = undefined;
    this.#progress.hidden = true;
    this.#busy(false);
    // A stop by the server is its problem again, so that ApiProblem's rule says whether the session ended.
    if (stop?.status !== undefined && stop.code !== undefined && this.sessionLost(new ApiProblem(stop.status, stop.code, stop.detail, undefined))) return;
    this.#answer.replaceChildren(resultsView({ tally, rows, csv, fileName, ...(stop && { stop }), ...(note && { note }) }));
    announce(stop ? stopWords(stop) : `Done: ${plural(tally.rows, "row", "rows")}, ${formatCount(tally.valid)} valid.`);
    // Focus moves at the next frame, with the layout that frame does anyway, not in this task.
    requestAnimationFrame(() => byId("download-csv").focus());
    if (tally.rows > 0) this.charged();
  }
}
