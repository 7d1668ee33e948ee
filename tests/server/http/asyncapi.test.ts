import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, parseDestination } from '../../../protocol/destinations.ts';
import { channelCatalogue } from '../../../server/http/asyncapi.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as plain JSON
type Json = any;

function refsIn(value: Json, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}
const resolvePointer = (document: Json, ref: string): unknown =>
  ref.startsWith('#/') ? ref.slice(2).split('/').reduce<Json>((node, part) => (node && typeof node === 'object' ? node[part] : undefined), document) : undefined;

/** One concrete destination of every kind parseDestination knows: each topic with an id, each queue by name. */
const concreteDestinations = Object.values(destinations).map((destination) => (typeof destination === 'function' ? destination('GSPOT-DA') : destination));

let t: TestServer;
let document: Json;
let response: Response;

beforeAll(async () => {
  t = await startTestServer();
  response = await fetch(`${t.api}/asyncapi.json`);
  document = await response.clone().json();
});
afterAll(async () => {
  await t?.server.close();
});

describe('GET /session/api/asyncapi.json', () => {
  it('answers without a token, cacheable', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(document.asyncapi).toBe('3.0.0');
    expect(document.servers.exchange.pathname).toBe('/session/ws');
  });

  it('has a channel for every destination kind of parseDestination, whose address parses back to that kind', () => {
    const kinds = new Set(concreteDestinations.map((destination) => parseDestination(destination)?.kind));
    expect(kinds.has(undefined)).toBe(false);
    expect(kinds.size).toBe(Object.keys(destinations).length);
    expect(Object.keys(document.channels).sort()).toEqual([...kinds].sort());
    for (const [kind, channel] of Object.entries<Json>(document.channels)) {
      // `{assetId}` stands for an id: filled in, the address is a destination of this kind.
      const filled = (channel.address as string).replace(/\{(assetId|marketId)\}/, 'GSPOT-DA');
      expect(parseDestination(filled)?.kind, kind).toBe(kind);
      const parameters = [...(channel.address as string).matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(Object.keys(channel.parameters ?? {}), kind).toEqual(parameters);
      expect(Object.keys(channel.messages).length, kind).toBeGreaterThan(0);
    }
  });

  it('gives each channel its payload schemas from protocol/, a receive operation per subscription and a send to /app/chat', () => {
    expect(Object.keys(channelCatalogue).sort()).toEqual(Object.keys(document.channels).sort());
    expect(document.channels.book.address).toBe('/topic/book.{assetId}');
    expect(Object.keys(document.channels.book.messages).sort()).toEqual(['bookDelta', 'bookSnapshot']);
    expect(document.components.schemas.BookDelta.properties).toHaveProperty('seq');
    expect(document.components.schemas.OrderUpdate.properties.order).toEqual({ $ref: '#/components/schemas/Order' });
    expect(document.operations.sendChatSend).toMatchObject({ action: 'send', channel: { $ref: '#/channels/chatSend' } });
    expect(document.channels.chatSend.address).toBe('/app/chat');
    expect(document.components.schemas.ChatOutgoing.required).toEqual(expect.arrayContaining(['to', 'text']));
    const receives = Object.values<Json>(document.operations).filter((operation) => operation.action === 'receive');
    const sends = Object.values<Json>(document.operations).filter((operation) => operation.action === 'send');
    expect(sends.map((operation) => operation.channel.$ref).sort()).toEqual(['#/channels/chatSend', '#/channels/orderEntry']);
    expect(receives).toHaveLength(Object.keys(document.channels).length - sends.length);
    const dangling = [...new Set(refsIn(document))].filter((ref) => resolvePointer(document, ref) === undefined);
    expect(dangling).toEqual([]);
  });
});
