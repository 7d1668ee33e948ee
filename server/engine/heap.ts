/**
 * A binary min-heap of (time, id) pairs for order expiry. Entries are never removed in place: the
 * engine checks on pop that the order still exists and still expires at that time (lazy deletion).
 * Ties on time break on id, so the pop order is deterministic.
 */
export class ExpiryHeap {
  private times: number[] = [];
  private ids: number[] = [];

  get size(): number {
    return this.times.length;
  }

  push(time: number, id: number): void {
    const times = this.times;
    const ids = this.ids;
    let i = times.length;
    times.push(time);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      const pid = ids[parent]!;
      if (pt < time || (pt === time && pid <= id)) break;
      times[i] = pt;
      ids[i] = pid;
      i = parent;
    }
    times[i] = time;
    ids[i] = id;
  }

  peekTime(): number | undefined {
    return this.times[0];
  }

  peekId(): number | undefined {
    return this.ids[0];
  }

  pop(): void {
    const times = this.times;
    const ids = this.ids;
    const n = times.length - 1;
    if (n < 0) return;
    const lastT = times.pop()!;
    const lastId = ids.pop()!;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && (times[r]! < times[l]! || (times[r] === times[l] && ids[r]! < ids[l]!))) c = r;
      const ct = times[c]!;
      const cid = ids[c]!;
      if (lastT < ct || (lastT === ct && lastId <= cid)) break;
      times[i] = ct;
      ids[i] = cid;
      i = c;
    }
    times[i] = lastT;
    ids[i] = lastId;
  }

  /** Replaces the contents with entries in heap order, as entries() gave them (snapshot import). */
  load(entries: ReadonlyArray<readonly [number, number]>): void {
    this.times = entries.map((e) => e[0]);
    this.ids = entries.map((e) => e[1]);
  }

  /** Entries in heap order (for hashing and checks). */
  entries(): Array<[number, number]> {
    return this.times.map((t, i) => [t, this.ids[i]!]);
  }
}
