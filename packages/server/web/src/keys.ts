import type { CreateKeyRequest, KeyRecord, KeyScope } from "@iccid/core";
import { api, describeProblem } from "./api.js";
import { announce, byId, h, showError } from "./dom.js";
import { formatInstant, formatInstantShort } from "./format.js";
import { keyLabel } from "./key-label.js";
import { NewKeyPanel } from "./new-key.js";
import { RevokeDialog } from "./revoke-dialog.js";
import { RollDialog } from "./roll-dialog.js";

const DAY_MS = 86_400_000;
const SCOPE_WORDS: Record<KeyScope, string> = { lookup: "lookups", "usage:read": "usage" };

/** Revoked, expired (expires_at passed: a rolled key after its grace too), or working. */
function stateOf(key: KeyRecord): "revoked" | "expired" | "active" {
  if (key.revoked_at !== null) return "revoked";
  if (key.expires_at !== null && Date.parse(key.expires_at) <= Date.now()) return "expired";
  return "active";
}

// Short in the cell, complete on hover (title).
const when = (iso: string | null, never: string): Node | string =>
  iso ? h("time", { datetime: iso, title: formatInstant(iso) }, formatInstantShort(iso)) : never;

/** Active keys first, newest first within each group: the ones a user is likely to act on lead. */
function ordered(keys: KeyRecord[]): KeyRecord[] {
  return [...keys].sort((a, b) => Number(stateOf(a) !== "active") - Number(stateOf(b) !== "active") || b.created_at.localeCompare(a.created_at));
}

/** The keys card: list, create with scopes and an expiry (secret shown once), roll and revoke after confirmation. */
export class KeysPanel {
  readonly #list = byId("key-list");
  readonly #title = byId("keys-title");
  readonly #error = byId("keys-error");
  readonly #form = byId<HTMLFormElement>("create-key-form");
  readonly #name = byId<HTMLInputElement>("create-key-name");
  readonly #newKey = new NewKeyPanel(() => this.#name.focus());
  readonly #expiry = byId<HTMLSelectElement>("create-key-expiry");
  readonly #dialog = new RevokeDialog();
  readonly #rollDialog = new RollDialog();

  /**
   * `sessionLost` takes over when a call failed because the session ended, and then returns true;
   * `changed` is told after every change (the Activity list follows).
   */
  constructor(
    private readonly sessionLost: (error: unknown) => boolean,
    private readonly changed: () => void = () => {},
  ) {
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
      const created = await api.createKey(this.#request());
      this.#form.reset();
      this.#newKey.show(created);
      announce(`Key ${keyLabel(created)} created. Copy it now: you will not see it again.`);
      await this.load();
      this.changed();
    } catch (error) {
      this.#fail("Could not create the key.", error);
    } finally {
      submit.disabled = false;
    }
  }

  /** The form as a request: the scopes ticked (none ticked: the server names the field), the expiry chosen. */
  #request(): CreateKeyRequest {
    const name = this.#name.value.trim();
    const scopes = [...this.#form.querySelectorAll<HTMLInputElement>("input[name=scope]:checked")].map((box) => box.value as KeyScope);
    const days = Number(this.#expiry.value);
    return {
      ...(name ? { name } : {}),
      scopes,
      ...(days > 0 ? { expires_at: new Date(Date.now() + days * DAY_MS).toISOString() } : {}),
    };
  }

  async #roll(key: KeyRecord): Promise<void> {
    const grace = await this.#rollDialog.ask(key);
    if (grace === undefined) return;
    showError(this.#error, null);
    try {
      const rolled = await api.rollKey(key.id, grace);
      this.#newKey.show(rolled);
      announce(`Key ${keyLabel(key)} rolled into ${keyLabel(rolled)}. Copy the new key now: you will not see it again.`);
      await this.load();
      this.changed();
    } catch (error) {
      this.#fail("Could not roll the key.", error);
    }
  }

  async #revoke(key: KeyRecord): Promise<void> {
    if (!(await this.#dialog.confirm(key))) return;
    showError(this.#error, null);
    try {
      await api.revokeKey(key.id);
      announce(`Key ${keyLabel(key)} revoked.`);
      await this.load();
      this.changed();
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
    const head = ["Name", "Key", "Scopes", "Created", "Expires", "Last used", "Status", "Actions"];
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
    const state = stateOf(key);
    const label = key.name ?? keyLabel(key);
    // data-label feeds the stacked layout on narrow screens (CSS shows it before each cell).
    const cell = (label: string, ...content: Array<Node | string | null>) => h("td", { "data-label": label, role: "cell" }, ...content);
    let actions: Node | null = null; // none for a revoked or expired key (and an :empty cell the phone layout hides)
    if (state === "active") {
      const roll = h("button", { type: "button", class: "button secondary small", "aria-label": `Roll key ${label}` }, "Roll");
      roll.addEventListener("click", () => void this.#roll(key));
      const revoke = h("button", { type: "button", class: "button danger small", "aria-label": `Revoke key ${label}` }, "Revoke");
      revoke.addEventListener("click", () => void this.#revoke(key));
      actions = h("div", { class: "key-actions" }, roll, revoke);
    }
    const status =
      state === "active"
        ? h("span", { class: "status ok" }, "Active")
        : h(
            "div",
            {},
            h("span", { class: "status revoked" }, state === "revoked" ? "Revoked" : "Expired"),
            h("span", { class: "visually-hidden" }, " on "),
            h("span", { class: "status-date" }, when(state === "revoked" ? key.revoked_at : key.expires_at, "")),
          );
    return h(
      "tr",
      { "data-key-id": key.id, class: state === "active" ? undefined : "revoked", role: "row" },
      h("th", { scope: "row", "data-label": "Name", role: "rowheader" }, key.name ?? h("span", { class: "muted" }, "(no name)")),
      cell("Key", h("code", {}, keyLabel(key))),
      cell("Scopes", ...key.scopes.map((scope) => h("span", { class: "scope" }, SCOPE_WORDS[scope]))),
      cell("Created", when(key.created_at, "")),
      cell("Expires", when(key.expires_at, "Never")),
      cell("Last used", when(key.last_used_at, "Never")),
      cell("Status", status),
      cell("Actions", actions),
    );
  }
}
