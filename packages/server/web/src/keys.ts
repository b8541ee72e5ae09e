import type { KeyRecord } from "@iccid/core";
import { api, describeProblem } from "./api.js";
import { announce, byId, h, showError } from "./dom.js";
import { formatInstant, formatInstantShort } from "./format.js";
import { keyLabel } from "./key-label.js";
import { NewKeyPanel } from "./new-key.js";
import { RevokeDialog } from "./revoke-dialog.js";

// Short in the cell, complete on hover (title).
const when = (iso: string | null, never: string): Node | string =>
  iso ? h("time", { datetime: iso, title: formatInstant(iso) }, formatInstantShort(iso)) : never;

/** Active keys first, newest first within each group: the ones a user is likely to act on lead. */
function ordered(keys: KeyRecord[]): KeyRecord[] {
  return [...keys].sort((a, b) => Number(a.revoked_at !== null) - Number(b.revoked_at !== null) || b.created_at.localeCompare(a.created_at));
}

/** The keys card: list, create (secret shown once), revoke after confirmation. */
export class KeysPanel {
  readonly #list = byId("key-list");
  readonly #title = byId("keys-title");
  readonly #error = byId("keys-error");
  readonly #form = byId<HTMLFormElement>("create-key-form");
  readonly #name = byId<HTMLInputElement>("create-key-name");
  readonly #newKey = new NewKeyPanel(() => this.#name.focus());
  readonly #dialog = new RevokeDialog();

  /** `sessionLost` takes over when a call failed because the session ended, and then returns true. */
  constructor(private readonly sessionLost: (error: unknown) => boolean) {
    this.#form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.#create();
    });
  }

  async load(): Promise<void> {
    try {
      this.#render(await api.listKeys());
    } catch (error) {
      this.#fail("Could not load your keys.", error);
    }
  }

  clear(): void {
    this.#newKey.hide();
    this.#list.replaceChildren();
    this.#form.reset();
    showError(this.#error, null);
  }

  async #create(): Promise<void> {
    const submit = this.#form.querySelector<HTMLButtonElement>("button[type=submit]")!;
    submit.disabled = true;
    showError(this.#error, null);
    try {
      const created = await api.createKey(this.#name.value.trim() || undefined);
      this.#form.reset();
      this.#newKey.show(created);
      announce(`Key ${keyLabel(created)} created. Copy it now: you will not see it again.`);
      await this.load();
    } catch (error) {
      this.#fail("Could not create the key.", error);
    } finally {
      submit.disabled = false;
    }
  }

  async #revoke(key: KeyRecord): Promise<void> {
    if (!(await this.#dialog.confirm(key))) return;
    showError(this.#error, null);
    try {
      await api.revokeKey(key.id);
      announce(`Key ${keyLabel(key)} revoked.`);
      await this.load();
      // The button that had focus is gone with its row: put focus somewhere meaningful, not on <body>.
      this.#title.focus();
    } catch (error) {
      this.#fail("Could not revoke the key.", error);
    }
  }

  #fail(what: string, error: unknown): void {
    if (this.sessionLost(error)) return;
    showError(this.#error, `${what} ${describeProblem(error)}`);
  }

  #render(keys: KeyRecord[]): void {
    if (keys.length === 0) {
      this.#list.replaceChildren(h("p", { class: "muted" }, "No keys yet. Create one to call the API."));
      return;
    }
    const head = ["Name", "Key", "Created", "Last used", "Status", "Actions"];
    // Explicit roles throughout: the phone layout restyles the table as blocks, and Chromium then drops
    // the implicit table semantics screen readers navigate by.
    this.#list.replaceChildren(
      h(
        "table",
        { class: "keys-table", role: "table" },
        h("caption", { class: "visually-hidden" }, "Your API keys"),
        h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, ...head.map((label) => h("th", { scope: "col", role: "columnheader" }, label)))),
        h("tbody", { role: "rowgroup" }, ...ordered(keys).map((key) => this.#row(key))),
      ),
    );
  }

  #row(key: KeyRecord): HTMLTableRowElement {
    const revoked = key.revoked_at !== null;
    // data-label feeds the stacked layout on narrow screens (CSS shows it before each cell).
    const cell = (label: string, ...content: Array<Node | string | null>) => h("td", { "data-label": label, role: "cell" }, ...content);
    let action: Node | null = null; // none for a revoked key (and an :empty cell the phone layout hides)
    if (!revoked) {
      const button = h(
        "button",
        { type: "button", class: "button danger small", "aria-label": `Revoke key ${key.name ?? keyLabel(key)}` },
        "Revoke",
      );
      button.addEventListener("click", () => void this.#revoke(key));
      action = button;
    }
    return h(
      "tr",
      { "data-key-id": key.id, class: revoked ? "revoked" : undefined, role: "row" },
      h("th", { scope: "row", "data-label": "Name", role: "rowheader" }, key.name ?? h("span", { class: "muted" }, "(no name)")),
      cell("Key", h("code", {}, keyLabel(key))),
      cell("Created", when(key.created_at, "")),
      cell("Last used", when(key.last_used_at, "Never")),
      cell(
        "Status",
        revoked
          ? h("div", {}, h("span", { class: "status revoked" }, "Revoked"), h("span", { class: "visually-hidden" }, " on "), h("span", { class: "status-date" }, when(key.revoked_at, "")))
          : h("span", { class: "status ok" }, "Active"),
      ),
      cell("Actions", action),
    );
  }
}
