/** A clock tests move by hand: TOTP steps and token expiry depend on it. */
export class TestClock {
  constructor(private current = Date.UTC(2026, 10, 22, 9, 0, 0)) {}
  now = (): number => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
  /** Moves to the next 30 s TOTP step so a fresh code is valid. */
  nextTotpStep(): void {
    this.current = (Math.floor(this.current / 30_000) + 1) * 30_000 + 1_000;
  }
}
