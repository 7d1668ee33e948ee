// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAsyncApiDocument } from '../../../server/http/asyncapi.ts';
import { buildOpenApiDocument } from '../../../server/http/openapi.ts';
import { routeCatalogue } from '../../../server/http/route-catalogue.ts';
import { ApiDocsPage, apiChannelsOf, apiRoutesOf, ASYNCAPI_URL, OPENAPI_URL, romanianSummaryOf, routeDescriptionKeyOf, routesByTag } from '../../../src/pages/ApiDocsPage.tsx';
import { WithIntl } from '../components/intl.tsx';

/** The documents as the server builds them, from every route of the catalogue (which its own test ties to the registered routes). */
const openapi = buildOpenApiDocument(Object.keys(routeCatalogue).map((key) => ({ method: key.split(' ')[0]!, url: `/session/api${key.split(' ')[1]}` })));
const asyncapi = buildAsyncApiDocument();
type Documents = Parameters<typeof apiRoutesOf>[0];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function serveDocuments(ok = true) {
  const fetchMock = vi.fn(async (url: string) => {
    if (!ok) return new Response('{}', { status: 503 });
    const body = url === OPENAPI_URL ? openapi : url === ASYNCAPI_URL ? asyncapi : null;
    return new Response(JSON.stringify(body), { status: body ? 200 : 404, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the API documentation page', () => {
  it('reads every route of the OpenAPI document, and every one has a Romanian description', () => {
    const routes = apiRoutesOf(openapi as unknown as Documents);
    expect(routes).toHaveLength(Object.keys(routeCatalogue).length);
    expect(routes.filter((route) => !routeDescriptionKeyOf(route) && !romanianSummaryOf(route)).map((route) => route.operationId)).toEqual([]);
    const groups = routesByTag(routes, (openapi.tags as Array<{ name: string }>).map((tag) => tag.name));
    expect(groups.flatMap(([, group]) => group)).toHaveLength(routes.length);
    expect(groups.map(([tag]) => tag)).toContain('orders');
    expect(routes.find((route) => route.operationId === 'postLogin')?.auth).toBe(false);
    expect(routes.find((route) => route.operationId === 'postOrders')?.auth).toBe(true);
    const channels = apiChannelsOf(asyncapi as unknown as Parameters<typeof apiChannelsOf>[0]);
    expect(channels.filter((channel) => channel.send).map((channel) => channel.address)).toEqual(['/app/chat', '/app/orders']);
  });

  it('lists every route grouped by tag, and the STOMP destinations, in Romanian', async () => {
    const fetchMock = serveDocuments();
    render(
      <WithIntl locale="ro">
        <ApiDocsPage />
      </WithIntl>,
    );
    const orders = await screen.findByRole('heading', { name: 'Ordine' });
    const section = orders.closest('section')!;
    expect(within(section).getByText('/session/api/orders/{orderId}/cancel')).toBeTruthy();
    expect(within(section).getByText('Anularea unui ordin (fără corp).')).toBeTruthy();
    // Every route of the document is in a table.
    for (const route of apiRoutesOf(openapi as unknown as Documents)) expect(screen.getAllByText(route.path).length).toBeGreaterThan(0);
    expect(screen.getByText('/topic/book.{assetId}')).toBeTruthy();
    expect(screen.getByText('/app/chat')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Prețuri și cantități' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(OPENAPI_URL, expect.anything());
  });

  it("shows the document's own summaries in English, and says so when the documents cannot be loaded", async () => {
    serveDocuments();
    render(
      <WithIntl locale="en">
        <ApiDocsPage />
      </WithIntl>,
    );
    expect(await screen.findByText('Cancel an order (no body).')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Prices and quantities' })).toBeTruthy();
    cleanup();
    serveDocuments(false);
    render(
      <WithIntl locale="en">
        <ApiDocsPage />
      </WithIntl>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('could not be loaded');
  });
});
