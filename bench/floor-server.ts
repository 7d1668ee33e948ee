/**
 * The floor under bench:orders: the same HTTP route and journal with nothing of the exchange behind
 * them. Fastify parses the order, our journal appends it (group commit, fdatasync) and the reply is a
 * 201 with an order-sized body. No auth, rules, engine, market data or read models: whatever the
 * exchange costs beyond this is ours to cut; this much is the machine's and the frameworks'.
 *
 * Run by bench/orders.bench.ts in its own process: PORT and DATA_DIR from the environment; prints
 * "Floor running" when it listens and closes the journal on SIGTERM.
 */
import Fastify from 'fastify';
import { Journal } from '../server/engine/journal/journal.ts';

const { journal } = await Journal.open<unknown, never>(`${process.env.DATA_DIR}/journal`);
const app = Fastify({ logger: false });
let orderId = 0;
app.post('/session/api/orders', async (request, reply) => {
  const body = request.body as Record<string, unknown>;
  const seq = await journal.append({ command: body });
  const at = new Date().toISOString();
  // The fields and size of the exchange's order reply.
  return reply.code(201).send({
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
  });
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.log('Floor running');
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => journal.close())
    .then(() => process.exit(0));
});
