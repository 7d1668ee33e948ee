import { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { destinations, parseDestination } from '../../../protocol/destinations.ts';
import { channelCatalogue } from '../../../server/http/asyncapi.ts';
import { cancelGraceOf } from '../../../server/trading/cancel-on-disconnect.ts';
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

/** A STOMP CONNECT with these headers: null when CONNECTED, else the ERROR frame's code. */
async function connectWith(headers: Record<string, string>): Promise<string | null> {
  const client = new Client({
    webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${t.server.port}/session/ws`, ['v12.stomp']),
    connectHeaders: headers,
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  const outcome = await new Promise<string | null>((resolve) => {
    client.onConnect = () => resolve(null);
    client.onStompError = (frame) => resolve(frame.headers.code ?? frame.body);
    client.activate();
  });
  await client.deactivate();
  return outcome;
}

describe('the CONNECT headers in the AsyncAPI document', () => {
  it('describes cancel-on-disconnect: what its pattern and maximum allow is exactly what the server takes', () => {
    expect(document.info.description).toContain('cancel-on-disconnect: <graceMs>');
    const headers = document.servers.exchange['x-stomp-connect-headers'];
    expect(headers.required).toEqual(['Authorization']);
    const header = headers.properties['cancel-on-disconnect'];
    expect(header.description).toMatch(/without a DISCONNECT/);
    const documented = (value: string) => new RegExp(header.pattern).test(value) && Number(value) <= header['x-maximum'];
    const accepted = (value: string) => {
      try {
        return cancelGraceOf({ 'cancel-on-disconnect': value }) !== null;
      } catch {
        return false;
      }
    };
    for (const value of ['0', '5000', ' 250 ', '60000', '60001', '999999', '1234567', '-1', '1.5', '1e3', 'abc', '', ...header.examples]) {
      expect(documented(value), JSON.stringify(value)).toBe(accepted(value));
    }
  });

  it('a CONNECT with the documented example is taken; one beyond the maximum is refused with its code', async () => {
    const token = await t.login('broker1');
    const header = document.servers.exchange['x-stomp-connect-headers'].properties['cancel-on-disconnect'];
    expect(await connectWith({ Authorization: `Bearer ${token}`, 'cancel-on-disconnect': header.examples[0] })).toBeNull();
    expect(await connectWith({ Authorization: `Bearer ${token}`, 'cancel-on-disconnect': String(header['x-maximum'] + 1) })).toBe('STOMP_CANCEL_ON_DISCONNECT_INVALID');
  });
});
