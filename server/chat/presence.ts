/**
 * Who is online: a user is online while at least one authenticated STOMP connection of theirs is
 * open (every tab counts). Going offline is announced only after `graceMs` without a connection, so
 * a reload or a reconnect does not flash the user offline and back to every contact.
 */
export interface PresenceOptions {
  graceMs: number;
  /** Called when the announced state of a user changes. */
  onChange(userId: string, online: boolean): void;
}

export class Presence {
  private readonly connections = new Map<string, number>();
  private readonly announced = new Set<string>();
  private readonly pendingOffline = new Map<string, NodeJS.Timeout>();

  constructor(private readonly options: PresenceOptions) {}

  opened(userId: string): void {
    this.connections.set(userId, (this.connections.get(userId) ?? 0) + 1);
    const pending = this.pendingOffline.get(userId);
    if (pending) {
      clearTimeout(pending);
      this.pendingOffline.delete(userId);
    }
    if (!this.announced.has(userId)) {
      this.announced.add(userId);
      this.options.onChange(userId, true);
    }
  }

  closed(userId: string): void {
    const count = (this.connections.get(userId) ?? 0) - 1;
    if (count > 0) {
      this.connections.set(userId, count);
      return;
    }
    this.connections.delete(userId);
    if (!this.announced.has(userId) || this.pendingOffline.has(userId)) return;
    const announce = () => {
      this.pendingOffline.delete(userId);
      if (this.connections.has(userId)) return;
      this.announced.delete(userId);
      this.options.onChange(userId, false);
    };
    if (this.options.graceMs <= 0) {
      announce();
      return;
    }
    const timer = setTimeout(announce, this.options.graceMs);
    timer.unref();
    this.pendingOffline.set(userId, timer);
  }

  /** The state contacts were told. */
  isOnline(userId: string): boolean {
    return this.announced.has(userId);
  }

  onlineUsers(): string[] {
    return [...this.announced];
  }

  close(): void {
    for (const timer of this.pendingOffline.values()) clearTimeout(timer);
    this.pendingOffline.clear();
  }
}
