/**
 * A Map of at most `maxEntries` entries: setting a new key while full first drops the entry set
 * longest ago. The per-process memos and caches of the hot paths are these, so that none grows with
 * what clients send.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly maxEntries: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.maxEntries && !this.has(key)) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}
