/**
 * Fuzzing of the STOMP frame parser and the session behind it (issue 13, Build item 3): 10^5 random
 * and mutated frames through the gateway's Connection over an in-memory socket, then a smaller number
 * over real sockets. No crash, no hang, and every refusal is an ERROR frame with a catalogue code.
 * The long run is `npm run fuzz:stomp` (10^6).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { isErrorCode } from '../../../protocol/index.ts';
import { parseServerFrames, signToken, startRig, type Rig } from './helpers.ts';
import { fuzz, inputArb } from './stomp-fuzz.ts';

describe('STOMP fuzzing', () => {
  it('10^5 random and mutated frames: no crash, no hang, every refusal coded', async () => {
    const started = performance.now();
    const tally = await fuzz(100_000, 2026);
    const seconds = (performance.now() - started) / 1000;
    const codes = [...tally.codes.entries()].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`);
    console.log(
      `fuzz:stomp frames=${tally.frames} inputs=${tally.inputs} crashes=${tally.crashes} hangs=${tally.hangs} uncoded=${tally.uncoded} ` +
        `(refused ${tally.refused}, open or accepted ${tally.accepted}; ${seconds.toFixed(1)} s)\n  codes: ${codes.join(', ')}`,
    );
    for (const example of tally.examples) console.log(`  ${example}`);
    expect(tally.frames).toBeGreaterThanOrEqual(100_000);
    expect({ crashes: tally.crashes, hangs: tally.hangs, uncoded: tally.uncoded }).toEqual({ crashes: 0, hangs: 0, uncoded: 0 });
    // The generator reaches the refusals it is meant to: parser errors and session errors alike.
    for (const code of ['STOMP_FRAME_MALFORMED', 'STOMP_FRAME_TOO_LARGE', 'STOMP_TOO_MANY_HEADERS', 'STOMP_NOT_CONNECTED', 'STOMP_DESTINATION_UNKNOWN']) {
      expect(tally.codes.get(code) ?? 0, code).toBeGreaterThan(0);
    }
    expect(tally.accepted).toBeGreaterThan(1000);
  }, 120_000);

  describe('over real sockets', () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig({ maxFrameBytes: 8 * 1024, connectTimeoutMs: 2000 });
    });
    afterAll(async () => {
      await rig.close();
    });

    it('500 mutated inputs, each on its own socket: an ERROR with a code before every close the server makes', async () => {
      const token = await signToken('alice');
      const inputs = fc.sample(inputArb, { numRuns: 500, seed: 7 });
      let refused = 0;
      let uncoded = 0;
      const failures: string[] = [];
      for (const input of inputs) {
        const ws = new WebSocket(rig.url, ['v12.stomp']);
        ws.on('error', () => {});
        await new Promise((resolve) => ws.once('open', resolve));
        const received: Buffer[] = [];
        ws.on('message', (data: Buffer) => received.push(Buffer.from(data)));
        const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
        const connect = `CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`;
        const bytes = Buffer.concat([...(input.connected ? [Buffer.from(connect)] : []), ...input.frames]);
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = input.cuts[i % input.cuts.length]!;
          ws.send(bytes.subarray(at, at + size));
          at += size;
        }
        // The server closes within its grace after an ERROR, or the socket stays open: 150 ms tells.
        const code = await Promise.race([closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 150))]);
        if (code !== null && code !== 1000) {
          const frames = received.flatMap((data) => (/^(\r?\n)+$/.test(data.toString('latin1')) ? [] : parseServerFrames(data)));
          const error = frames.at(-1);
          if (error?.command === 'ERROR' && isErrorCode(error.headers['code']) && error.headers['code'] !== 'UNKNOWN_ERROR') refused += 1;
          else if (code === 1009 && bytes.length > 16 * 1024) refused += 1; // a WebSocket message over ws's maxPayload: ws's own close code
          else {
            uncoded += 1;
            if (failures.length < 3) failures.push(`close ${code}: ${JSON.stringify(frames.at(-1))}`);
          }
        }
        ws.terminate();
      }
      console.log(`fuzz over sockets: inputs=${inputs.length} refused=${refused} uncoded=${uncoded}`);
      expect(failures).toEqual([]);
      expect(uncoded).toBe(0);
      expect(refused).toBeGreaterThan(150);
      // Still serving.
      const probe = new WebSocket(rig.url, ['v12.stomp']);
      await new Promise((resolve) => probe.once('open', resolve));
      const reply = new Promise<string>((resolve) => probe.once('message', (data: Buffer) => resolve(data.toString())));
      probe.send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`);
      expect(await reply).toMatch(/^CONNECTED/);
      probe.terminate();
    }, 60_000);
  });
});
