/**
 * npm run bench:orders — the whole server path: orders sent over the REST API by concurrent clients on
 * loopback, each acknowledged only after the engine's journal has synced it to disk.
 *
 * The server runs in its own process (as in production) on a fresh data directory. The load comes from
 * BENCH_LOAD_PROCESSES child processes of this file (so the load generator does not share one event
 * loop, and its cost is measured apart from the server's): together they keep CONCURRENCY keep-alive
 * connections, each posting the next order as soon as the previous answer arrives (closed loop, one
 * request in flight per connection, no pipelining). The connections speak plain HTTP/1.1 on a socket:
 * Node's http client costs several times the server's work per request and would measure itself.
 *
 * Prints acknowledged orders/s, p50/p99 acknowledgement latency, the CPU the server and the load
 * processes used per acknowledged order, then one line for scripts.
 *
 * In the same run and with the same load it measures the floor (bench/floor-server.ts: Fastify and the
 * journal with nothing of the exchange behind them), so the figures read side by side. The two take
 * turns (BENCH_ROUNDS rounds, default 3, each a third of the measured time after its own warm-up,
 * and each waiting until the other server is idle): a slower spell of this shared machine, which moved
 * the floor between 6,500 and 9,400 orders/s from one run to the next, then falls on both alike.
 *
 * STOMP mode (`BENCH_TRANSPORT=stomp`, `npm run bench:orders -- --transport=stomp` or `npm run bench:orders:stomp`):
 * the exchange's load comes over STOMP instead: each connection is a STOMP session (CONNECT, SUBSCRIBE to
 * /user/queue/order-replies) sending each order as a SEND to /app/orders with a receipt, the next one
 * as soon as the RECEIPT arrives (closed loop, one command in flight per session). Acknowledged = a
 * RECEIPT whose reply was ok; latency from SEND to RECEIPT. The floor stays REST (Fastify + journal), so
 * the ratio reads against the same floor; the last line ends with `transport=stomp`.
 *
 * Environment: BENCH_SECONDS (default 10, per server over all rounds), BENCH_ROUNDS (default 3), BENCH_CONCURRENCY (default 64), BENCH_LOAD_PROCESSES (default 2),
 * BENCH_FLOOR=0 (skip the floor), BENCH_FLOOR_HTTP=node (the floor on node:http instead of Fastify), BENCH_CPU_PROF=1 (the servers' CPU profiles to .tmp/prof).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { demoAssetId } from '../server/demo/demo-exchange.ts';
import { percentile, startBenchServer, type BenchServer } from './bench-server.ts';

/** The forward months are the ones the demo lists on the day the bench server's data is made: today (server/demo/demo-calendar.ts). */
const assets = ['GSPOT-DA', 'GSPOT-WD', 'ESPOT-DA-BASE', 'ESPOT-DA-PEAK', demoAssetId('GFWD-M-2027-01', Date.now()), demoAssetId('EFWD-M-2027-01-BASE', Date.now())];

interface Trader {
  token: string;
  clients: string[];
}

/** Parent → load process. */
type Transport = 'rest' | 'stomp';

type Command =
  | { type: 'setup'; port: number; traders: Trader[]; connections: number[]; processIndex: number; processCount: number; runId: string; transport: Transport }
  | { type: 'measure' }
  | { type: 'stop' };

/** Load process → parent. */
type Report =
  | { type: 'started' }
  | { type: 'ready' }
  | { type: 'result'; acked: number; refused: number; refusals: Array<[string, number]>; latencies: Float64Array; cpuMs: number };

/** Order number n of the run: the same mix whichever process sends it. */
function orderBody(n: number, runId: string, trader: Trader) {
  const way = n % 2 === 0 ? 'bid' : 'ask';
  // Around a mid of 150.00 with a few crossing prices, so the books trade and stay populated.
  const offset = ((n * 7919) % 21) - 10;
  return {
    idempotencyKey: `bench-${runId}-${n}`,
    assetId: assets[n % assets.length],
    way,
    price: way === 'bid' ? 15_000 - offset : 15_000 + offset,
    qty: 10 * (1 + (n % 10)),
    validityType: 'day',
    clientCode: trader.clients[n % trader.clients.length],
  };
}

/** One keep-alive connection with one request in flight; parses just what this server answers (content-length bodies). */
class OrderConnection {
  private received: Buffer | null = null;
  private started = 0;
  private onAnswer: ((status: number, body: Buffer, elapsedMs: number) => void) | null = null;

  private constructor(private readonly socket: Socket, private readonly port: number) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => {
      throw error;
    });
  }

  static open(port: number): Promise<OrderConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new OrderConnection(socket, port)));
      socket.once('error', reject);
    });
  }

  post(path: string, body: string, token: string): Promise<{ status: number; body: Buffer; elapsedMs: number }> {
    return new Promise((resolve) => {
      this.onAnswer = (status, answer, elapsedMs) => resolve({ status, body: answer, elapsedMs });
      this.started = performance.now();
      this.socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${this.port}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nauthorization: Bearer ${token}\r\n\r\n${body}`,
      );
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    const buffer = this.received ? Buffer.concat([this.received, chunk]) : chunk;
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) {
      this.received = buffer;
      return;
    }
    const head = buffer.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) throw new Error(`answer without content-length: ${head}`);
    const end = headEnd + 4 + Number(length[1]);
    if (buffer.length < end) {
      this.received = buffer;
      return;
    }
    if (buffer.length > end) throw new Error('more than one answer to one request');
    this.received = null;
    const elapsedMs = performance.now() - this.started;
    const answer = this.onAnswer!;
    this.onAnswer = null;
    answer(Number(head.slice(9, 12)), buffer.subarray(headEnd + 4), elapsedMs);
  }
}

/** An order's answer as the load loop counts it: acknowledged, or refused with a code. */
interface Answer {
  ok: boolean;
  code: string;
  elapsedMs: number;
}

/** What the load loop needs of a connection, whichever the transport. */
interface LoadConnection {
  order(n: number, body: ReturnType<typeof orderBody>, token: string): Promise<Answer>;
  close(): void;
}

/** REST: POST /orders on a keep-alive connection. */
class RestLoadConnection implements LoadConnection {
  constructor(private readonly connection: OrderConnection) {}

  static async open(port: number): Promise<RestLoadConnection> {
    return new RestLoadConnection(await OrderConnection.open(port));
  }

  async order(_n: number, body: ReturnType<typeof orderBody>, token: string): Promise<Answer> {
    const answer = await this.connection.post('/session/api/orders', JSON.stringify(body), token);
    if (answer.status === 201) return { ok: true, code: '', elapsedMs: answer.elapsedMs };
    const code = (JSON.parse(answer.body.toString()) as { error?: { code?: string } }).error?.code ?? String(answer.status);
    return { ok: false, code, elapsedMs: answer.elapsedMs };
  }

  close(): void {
    this.connection.close();
  }
}

/**
 * STOMP: one session over a ws WebSocket (its own user's token), subscribed to its order replies;
 * each order a SEND to /app/orders with a receipt. The reply comes before the RECEIPT on the socket.
 */
class StompLoadConnection implements LoadConnection {
  private started = 0;
  private lastReply = '';
  private waiting: { receipt: string; resolve: (answer: Answer) => void } | null = null;
  /** Before the first order: the answer CONNECT or SUBSCRIBE waits for. */
  private expected: { answer: RegExp; resolve: () => void } | null = null;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      // A WebSocket message holds whole frames; JSON bodies hold no NUL.
      for (const frame of String(data).split('\0')) if (frame.trim() !== '') this.onFrame(frame.replace(/^\n+/, ''));
    });
    ws.on('error', (error) => {
      throw error;
    });
  }

  static async open(port: number, token: string): Promise<StompLoadConnection> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp'], { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const connection = new StompLoadConnection(ws);
    await connection.exchange(`CONNECT\naccept-version:1.2\nhost:exchange\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`, /^CONNECTED\n/);
    await connection.exchange(`SUBSCRIBE\nid:0\ndestination:/user/queue/order-replies\nreceipt:subscribed\n\n\0`, /^RECEIPT\nreceipt-id:subscribed\n/);
    return connection;
  }

  order(n: number, body: ReturnType<typeof orderBody>): Promise<Answer> {
    const receipt = String(n);
    const json = JSON.stringify({ type: 'add', correlationId: receipt, order: body });
    return new Promise((resolve) => {
      this.waiting = { receipt, resolve };
      this.lastReply = '';
      this.started = performance.now();
      this.ws.send(`SEND\ndestination:/app/orders\nreceipt:${receipt}\ncontent-type:application/json\ncontent-length:${Buffer.byteLength(json)}\n\n${json}\0`);
    });
  }

  close(): void {
    this.ws.terminate();
  }

  /** Sends a frame and waits for the first answer matching `answer` (an ERROR throws). */
  private exchange(frame: string, answer: RegExp): Promise<void> {
    return new Promise((resolve) => {
      this.expected = { answer, resolve };
      this.ws.send(frame);
    });
  }

  private onFrame(frame: string): void {
    if (frame.startsWith('ERROR')) throw new Error(`STOMP ERROR: ${frame}`);
    if (this.waiting === null) {
      if (this.expected?.answer.test(frame)) {
        const { resolve } = this.expected;
        this.expected = null;
        resolve();
      }
      return;
    }
    if (frame.startsWith('MESSAGE\n')) {
      this.lastReply = frame.slice(frame.indexOf('\n\n') + 2);
    } else if (frame.startsWith('RECEIPT\n')) {
      const elapsedMs = performance.now() - this.started;
      const { receipt, resolve } = this.waiting;
      if (!frame.includes(`\nreceipt-id:${receipt}\n`) && !frame.endsWith(`receipt-id:${receipt}`)) throw new Error(`unexpected receipt: ${frame}`);
      this.waiting = null;
      const ok = this.lastReply.startsWith('{"ok":true');
      const code = ok ? '' : ((JSON.parse(this.lastReply || '{}') as { code?: string }).code ?? 'NO_REPLY');
      resolve({ ok, code, elapsedMs });
    } else {
      throw new Error(`unexpected frame: ${frame.slice(0, 200)}`);
    }
  }
}

/** A load process: its share of the connections, each in a closed loop until told to stop. */
async function runLoad(): Promise<void> {
  const setup = await new Promise<Extract<Command, { type: 'setup' }>>((resolve) => {
    process.once('message', (m: Command) => m.type === 'setup' && resolve(m));
    // Asked for only now: a message that arrives before a listener exists is lost.
    process.send!({ type: 'started' } satisfies Report);
  });
  let measuring = false;
  let running = true;
  let local = 0;
  let acked = 0;
  let refused = 0;
  let cpuAtStart = process.cpuUsage();
  let cpuMs = 0;
  const refusals = new Map<string, number>();
  const latencies: number[] = [];
  const connections: LoadConnection[] = await Promise.all(
    setup.connections.map((globalIndex) =>
      setup.transport === 'stomp' ? StompLoadConnection.open(setup.port, setup.traders[globalIndex % setup.traders.length]!.token) : RestLoadConnection.open(setup.port),
    ),
  );

  async function loop(connection: LoadConnection, globalIndex: number): Promise<void> {
    const trader = setup.traders[globalIndex % setup.traders.length]!;
    while (running) {
      // Processes take interleaved order numbers, so together they send exactly the single-process sequence's mix.
      const n = setup.processIndex + setup.processCount * local++;
      const answer = await connection.order(n, orderBody(n, setup.runId, trader), trader.token);
      if (!measuring) continue;
      if (answer.ok) {
        acked++;
        latencies.push(answer.elapsedMs);
      } else {
        refused++;
        refusals.set(answer.code, (refusals.get(answer.code) ?? 0) + 1);
      }
    }
  }

  process.on('message', (message: Command) => {
    if (message.type === 'measure') {
      measuring = true;
      cpuAtStart = process.cpuUsage();
    } else if (message.type === 'stop') {
      measuring = false;
      const used = process.cpuUsage(cpuAtStart);
      cpuMs = (used.user + used.system) / 1000;
      running = false;
    }
  });
  const loops = connections.map((connection, index) => loop(connection, setup.connections[index]!));
  process.send!({ type: 'ready' } satisfies Report);
  await Promise.all(loops);
  for (const connection of connections) connection.close();
  // Disconnecting only once the result is handed over: earlier, the channel may drop it.
  process.send!({ type: 'result', acked, refused, refusals: [...refusals], latencies: Float64Array.from(latencies), cpuMs } satisfies Report, () => process.disconnect());
}

interface Measured {
  /** Acknowledgement latencies, ms, sorted. */
  latencies: number[];
  acked: number;
  refused: number;
  refusals: Map<string, number>;
  ackedPerSecond: number;
  p50: number;
  p99: number;
  serverCpuMs: number;
  loadCpuMs: number;
  elapsed: number;
}

/** Load processes against `server` for the settings' warm-up and measuring time; `round` keeps each round's idempotency keys apart. */
async function measure(server: BenchServer, traders: Trader[], settings: { seconds: number; concurrency: number; processCount: number; warmupSeconds: number }, transport: Transport, round: number): Promise<Measured> {
  const { seconds, concurrency, processCount, warmupSeconds } = settings;
  const loads: ChildProcess[] = [];
  try {
    const runId = `${process.pid}-${server.port}-${round}`;
    const results: Array<Promise<Extract<Report, { type: 'result' }>>> = [];
    const ready: Array<Promise<void>> = [];
    for (let processIndex = 0; processIndex < processCount; processIndex++) {
      const child = fork(fileURLToPath(import.meta.url), [], {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, BENCH_ORDERS_LOAD: '1' },
        serialization: 'advanced',
      });
      loads.push(child);
      ready.push(new Promise((resolve) => child.on('message', (m: Report) => m.type === 'ready' && resolve())));
      results.push(
        new Promise((resolve, reject) => {
          child.on('message', (m: Report) => m.type === 'result' && resolve(m));
          child.on('exit', (code) => reject(new Error(`load process exited with ${code}`)));
        }),
      );
      const connections = Array.from({ length: concurrency }, (_, index) => index).filter((index) => index % processCount === processIndex);
      const setup: Command = { type: 'setup', port: server.port, traders, connections, processIndex, processCount, runId, transport };
      child.once('message', (m: Report) => m.type === 'started' && child.send(setup));
    }
    await Promise.all(ready);
    await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));

    for (const child of loads) child.send({ type: 'measure' } satisfies Command);
    const serverCpuAtStart = server.cpuMs();
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    for (const child of loads) child.send({ type: 'stop' } satisfies Command);
    const elapsed = (Date.now() - started) / 1000;
    const serverCpuMs = server.cpuMs() - serverCpuAtStart;
    const reports = await Promise.all(results);

    const acked = reports.reduce((sum, report) => sum + report.acked, 0);
    const refused = reports.reduce((sum, report) => sum + report.refused, 0);
    const refusals = new Map<string, number>();
    for (const report of reports) for (const [code, n] of report.refusals) refusals.set(code, (refusals.get(code) ?? 0) + n);
    const latencies = reports.flatMap((report) => Array.from(report.latencies)).sort((a, b) => a - b);
    const loadCpuMs = reports.reduce((sum, report) => sum + report.cpuMs, 0);
    return { latencies, acked, refused, refusals, ackedPerSecond: Math.round(acked / elapsed), p50: percentile(latencies, 50), p99: percentile(latencies, 99), serverCpuMs, loadCpuMs, elapsed };
  } finally {
    for (const child of loads) if (child.exitCode === null) child.kill();
  }
}

/** The rounds of one server as one measurement: counts, time and CPU added, latencies pooled. */
function combined(rounds: Measured[]): Measured {
  const sum = (field: 'acked' | 'refused' | 'serverCpuMs' | 'loadCpuMs' | 'elapsed') => rounds.reduce((total, round) => total + round[field], 0);
  const refusals = new Map<string, number>();
  for (const round of rounds) for (const [code, n] of round.refusals) refusals.set(code, (refusals.get(code) ?? 0) + n);
  const latencies = rounds.flatMap((round) => round.latencies).sort((a, b) => a - b);
  const acked = sum('acked');
  const elapsed = sum('elapsed');
  return { latencies, acked, refused: sum('refused'), refusals, ackedPerSecond: Math.round(acked / elapsed), p50: percentile(latencies, 50), p99: percentile(latencies, 99), serverCpuMs: sum('serverCpuMs'), loadCpuMs: sum('loadCpuMs'), elapsed };
}

/**
 * Waits until the server process is idle (under 5 % of a core over 200 ms, at most 30 s): the exchange
 * writes its read models behind the acknowledgements, and that backlog must not run into the next
 * round, where it would take CPU from the other server.
 */
async function quiet(server: BenchServer): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const before = server.cpuMs();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const used = server.cpuMs() - before;
    if (!(used >= 10) || Date.now() > deadline) return;
  }
}

function report(label: string, measured: Measured): void {
  const { acked, refused, refusals, ackedPerSecond, p50, p99, serverCpuMs, loadCpuMs, elapsed } = measured;
  const perOrderUs = (cpuMs: number) => (acked > 0 ? ((cpuMs * 1000) / acked).toFixed(0) : '-');
  console.log(`${label}: acknowledged ${acked} orders (${refused} refused by rules), ${ackedPerSecond} orders/s`);
  if (refusals.size > 0) console.log(`  refusals: ${[...refusals].map(([code, n]) => `${code} ${n}`).join(', ')}`);
  console.log(`  acknowledgement latency p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
  console.log(
    `  CPU: server ${((serverCpuMs / 10 / elapsed) | 0)}% of a core, ${perOrderUs(serverCpuMs)} µs per acked order; load processes ${((loadCpuMs / 10 / elapsed) | 0)}%, ${perOrderUs(loadCpuMs)} µs per order`,
  );
}

/**
 * The line for scripts: the exchange, the floor of the same run and their ratio (acknowledged orders/s
 * of the exchange over the floor's). Without the floor (BENCH_FLOOR=0) its fields read `-`.
 */
function summaryLine(exchange: Pick<Measured, 'ackedPerSecond' | 'p50' | 'p99'>, floor: Pick<Measured, 'ackedPerSecond' | 'p99'> | null, transport: Transport): string {
  const ratio = floor && floor.ackedPerSecond > 0 ? (exchange.ackedPerSecond / floor.ackedPerSecond).toFixed(2) : '-';
  return (
    `bench:orders acked_per_s=${exchange.ackedPerSecond} p50_ms=${exchange.p50.toFixed(2)} p99_ms=${exchange.p99.toFixed(2)} ` +
    `floor_per_s=${floor ? floor.ackedPerSecond : '-'} floor_p99_ms=${floor ? floor.p99.toFixed(2) : '-'} ratio=${ratio}` +
    // REST's line stays as it always was; STOMP's says so.
    (transport === 'stomp' ? ' transport=stomp' : '')
  );
}

/** The exchange's transport: BENCH_TRANSPORT or `--transport=`; REST by default. */
function transportOf(): Transport {
  const argument = process.argv.find((arg) => arg.startsWith('--transport='))?.slice('--transport='.length);
  const value = argument ?? process.env.BENCH_TRANSPORT ?? 'rest';
  if (value !== 'rest' && value !== 'stomp') throw new Error(`unknown transport ${value}: rest or stomp`);
  return value;
}

async function runBench(): Promise<void> {
  const transport = transportOf();
  const settings = {
    seconds: Number(process.env.BENCH_SECONDS ?? 10),
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 64),
    processCount: 0,
    warmupSeconds: 2,
  };
  settings.processCount = Math.max(1, Math.min(settings.concurrency, Number(process.env.BENCH_LOAD_PROCESSES ?? 2)));
  console.log(
    `concurrency ${settings.concurrency} over ${settings.processCount} load process(es)${transport === 'stomp' ? ' (the exchange over STOMP sessions, the floor over REST)' : ''}, ${settings.seconds} s measured per server in ${Number(process.env.BENCH_ROUNDS ?? 3)} alternating rounds, each after a ${settings.warmupSeconds} s warm-up; each server in its own process, journal fdatasync per group commit`,
  );

  // The floor (bench/floor-server.ts: Fastify and the journal alone) and the exchange take turns under
  // the same load, BENCH_ROUNDS times (default 3) each, so that a slower spell of the machine falls on both.
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
  const roundSettings = { ...settings, seconds: settings.seconds / rounds };
  const withFloor = process.env.BENCH_FLOOR !== '0';
  const floor = withFloor ? await startBenchServer('orders-floor', 1, { script: 'bench/floor-server.ts', ready: 'Floor running' }) : null;
  try {
    const server = await startBenchServer('orders', 4);
    try {
      const traders: Trader[] = [
        { token: await server.signIn('broker1'), clients: ['RO-HIDRO', 'RO-GAZEST'] },
        { token: await server.signIn('broker2'), clients: ['RO-TERMO'] },
      ];
      const floorRounds: Measured[] = [];
      const exchangeRounds: Measured[] = [];
      for (let round = 0; round < rounds; round++) {
        if (floor) {
          await quiet(server);
          floorRounds.push(await measure(floor, [{ token: 'none', clients: ['RO-HIDRO'] }], roundSettings, 'rest', round));
          await quiet(floor);
        }
        exchangeRounds.push(await measure(server, traders, roundSettings, transport, round));
      }
      const floorMeasured = floor ? combined(floorRounds) : null;
      if (floorMeasured) report(`floor (${process.env.BENCH_FLOOR_HTTP === 'node' ? 'node:http' : 'Fastify'} + journal, no exchange)`, floorMeasured);
      const measured = combined(exchangeRounds);
      const perRound = (label: string, parts: Measured[]) => `${label} ${parts.map((part) => part.ackedPerSecond).join(' / ')}`;
      console.log(`rounds (orders/s): ${[...(floor ? [perRound('floor', floorRounds)] : []), perRound('exchange', exchangeRounds)].join('; ')}`);
      report(`exchange (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} read models${transport === 'stomp' ? ', orders over STOMP' : ''})`, measured);
      console.log(summaryLine(measured, floorMeasured, transport));
    } finally {
      await server.stop();
    }
  } finally {
    await floor?.stop();
  }
}

if (process.env.BENCH_ORDERS_LOAD) await runLoad();
else await runBench();
