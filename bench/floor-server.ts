/**
 * The floor under bench:orders: the same HTTP route and journal with nothing of the exchange behind
 * them. The order is parsed, our journal appends it (group commit, fdatasync) and the reply is a 201
 * with an order-sized body. No auth, rules, engine, market data or read models: whatever the exchange
 * costs beyond this is ours to cut; this much is the machine's and the frameworks'.
 *
 * Run by bench/orders.bench.ts in its own process: PORT and DATA_DIR from the environment; prints
 * "Floor running" when it listens and closes the journal on SIGTERM. BENCH_FLOOR_HTTP=node serves
 * the route with node:http alone instead of Fastify (the exchange's framework).
 */
import { createServer, type Server } from 'node:http';
import Fastify from 'fastify';
import { Journal } from '../server/engine/journal/journal.ts';

const { journal } = await Journal.open<unknown, never>(`${process.env.DATA_DIR}/journal`);
let orderId = 0;

/** Journals the order and answers with the fields and size of the exchange's order reply. */
async function accept(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const seq = await journal.append({ command: body });
  const at = new Date().toISOString();
  return {
    ...body,
    orderId: String(++orderId),
    journalSeq: seq,
    status: 'created',
    suspended: false,
    noCnt: null,
    offeredQty: body.qty,
    tradedQty: 0,
    tradedPrice: null,
    totalQty: body.qty,
    executionType: 'normal',
    validity: null,
    broker: 'broker1',
    createdAt: at,
    lastModifiedAt: at,
    marketId: 'GAS-SPOT',
  };
}

const port = Number(process.env.PORT);
let close: () => Promise<void>;
if (process.env.BENCH_FLOOR_HTTP === 'node') {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void accept(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>).then((order) => {
        const text = JSON.stringify(order);
        response.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        response.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
} else {
  const app = Fastify({ logger: false });
  app.post('/session/api/orders', async (request, reply) => reply.code(201).send(await accept(request.body as Record<string, unknown>)));
  await app.listen({ host: '127.0.0.1', port });
  close = () => app.close();
}
console.log('Floor running');
process.on('SIGTERM', () => {
  void close()
    .then(() => journal.close())
    .then(() => process.exit(0));
});
