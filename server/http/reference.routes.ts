import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiError, ExchangeError } from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { Store } from '../store/store.ts';
import { servedAsset } from '../trading/asset-periods.ts';
import { bucharestDate } from '../trading/time.ts';
import { requireUser } from './auth.routes.ts';
import { assetDocumentPdf } from './asset-documents.ts';
import { parseWith } from './validation.ts';

export const assetParamsSchema = z.strictObject({ assetId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const documentParamsSchema = z.strictObject({ assetId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), fileName: z.string().regex(/^[A-Za-z0-9_.-]{1,120}$/) });

/** The session date of a market (YYYY-MM-DD); rolling assets are served with the periods of that session. */
export type SessionDateOf = (marketId: string) => string;

/** Markets, rings and asset specifications the signed-in user may see. */
export function referenceRoutes(store: Store, auth: AuthService, sessionDateOf: SessionDateOf = () => bucharestDate(Date.now())) {
  const serve = (asset: Parameters<typeof servedAsset>[0]) => servedAsset(asset, sessionDateOf(asset.marketId));
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/markets', async (request) => {
      const user = await requireUser(auth, request);
      const [markets, rings] = await Promise.all([store.reference.markets(), store.reference.rings()]);
      const visible = new Set(user.marketIds);
      return { markets: markets.filter((market) => visible.has(market.id)), rings: rings.filter((ring) => visible.has(ring.marketId)) };
    });

    app.get('/assets', async (request) => {
      const user = await requireUser(auth, request);
      const visible = new Set(user.marketIds);
      const assets = await store.reference.assets();
      return { assets: assets.filter((asset) => visible.has(asset.marketId)).map(serve) };
    });

    app.get('/assets/:assetId', async (request) => {
      const user = await requireUser(auth, request);
      const { assetId } = parseWith(assetParamsSchema, request.params);
      const asset = (await store.reference.assets()).find((candidate) => candidate.id === assetId);
      if (!asset || !user.marketIds.includes(asset.marketId)) throw new ExchangeError(apiError('ORDER_ASSET_ID_INVALID', { assetId }));
      return serve(asset);
    });

    /** Specification documents are public, as exchanges publish them; a plain link downloads them. */
    app.get('/assets/:assetId/documents/:fileName', async (request, reply) => {
      const { assetId, fileName } = parseWith(documentParamsSchema, request.params);
      const asset = (await store.reference.assets()).find((candidate) => candidate.id === assetId);
      const document = asset?.spec.documents.find((candidate) => candidate.fileName === fileName);
      if (!asset || !document) throw new ExchangeError(apiError('NOT_FOUND', { path: `/assets/${assetId}/documents/${fileName}` }));
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(assetDocumentPdf(serve(asset), document.title));
    });
  };
}
