import type { CreatedKey } from "@iccid/core";
import { announce, byId } from "./dom.js";

/**
 * The one moment the full key is visible: shown after creation with a copy button, and wiped from the
 * page when dismissed or on sign-out, so it does not linger in the DOM.
 */
export class NewKeyPanel {
  readonly #panel = byId("new-key");
  readonly #title = byId("new-key-title");
  readonly #value = byId<HTMLInputElement>("new-key-value");
  readonly #copy = byId<HTMLButtonElement>("new-key-copy");
  readonly #copied = byId("new-key-copied");

  constructor(onDone: () => void) {
    this.#copy.addEventListener("click", () => void this.#copyKey());
    // Selecting the whole key on focus makes a manual copy one keystroke when the clipboard API is absent.
    this.#value.addEventListener("focus", () => this.#value.select());
    byId("new-key-done").addEventListener("click", () => {
      this.hide();
      onDone();
    });
  }

  show(key: CreatedKey): void {
    this.#value.value = key.key;
    this.#copied.textContent = "";
    this.#copy.textContent = "Copy";
    this.#panel.hidden = false;
    this.#title.focus();
  }

  hide(): void {
    this.#panel.hidden = true;
    this.#value.value = "";
    this.#copied.textContent = "";
  }

  async #copyKey(): Promise<void> {
    try {
      // Only in secure contexts (HTTPS or localhost); elsewhere fall back to selecting the text.
      await navigator.clipboard.writeText(this.#value.value);
      this.#copy.textContent = "Copied";
      this.#copied.textContent = "The key is on your clipboard.";
    } catch {
      this.#value.focus();
      this.#value.select();
      this.#copied.textContent = "Copying is blocked here: the key is selected, press Ctrl+C (⌘C on a Mac).";
    }
    announce(this.#copied.textContent ?? "");
  }
}
