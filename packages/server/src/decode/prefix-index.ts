/** What the index needs of an entry. */
export interface Prefixed {
  /** Full prefix, including the leading 89. */
  prefix: string;
  /** True for the operator's own prefixes, which win over built-in ones with the same prefix. */
  custom: boolean;
}

interface TrieNode<E> {
  entry: E | undefined;
  /** Children by digit 0–9. */
  next: Array<TrieNode<E> | undefined> | undefined;
}

/**
 * Longest-prefix index over issuer prefixes: a digit trie, so a lookup walks the ICCID once, one array
 * step per digit, and keeps the last entry it passed (no substrings, however long the longest prefix).
 * Custom entries replace built-in ones with the same prefix, which is what "custom wins at equal length"
 * means for prefixes of one ICCID.
 */
export class PrefixIndex<E extends Prefixed> {
  readonly #root: TrieNode<E> = { entry: undefined, next: undefined };

  constructor(entries: Iterable<E>) {
    for (const entry of entries) {
      const node = this.#nodeFor(entry.prefix);
      if (node.entry?.custom && !entry.custom) continue;
      node.entry = entry;
    }
  }

  /** The entry with the longest prefix of `iccid` (shorter than the whole number), or undefined. */
  longestMatch(iccid: string): E | undefined {
    let node: TrieNode<E> | undefined = this.#root;
    let found: E | undefined;
    const end = iccid.length - 1;
    for (let i = 0; i < end && node.next !== undefined; i++) {
      const digit = iccid.charCodeAt(i) - 48;
      node = digit >= 0 && digit <= 9 ? node.next[digit] : undefined;
      if (node === undefined) break;
      if (node.entry !== undefined) found = node.entry;
    }
    return found;
  }

  #nodeFor(prefix: string): TrieNode<E> {
    let node = this.#root;
    for (let i = 0; i < prefix.length; i++) {
      const digit = prefix.charCodeAt(i) - 48;
      if (!(digit >= 0 && digit <= 9)) throw new RangeError(`issuer prefix ${prefix} must be digits only`);
      node.next ??= new Array(10).fill(undefined);
      node = node.next[digit] ??= { entry: undefined, next: undefined };
    }
    return node;
  }
}
