import { describe, expect, it } from 'vitest';
import { destinations, parseDestination } from '../../protocol/destinations.ts';

describe('destinations', () => {
  it('round-trips every topic and queue', () => {
    expect(parseDestination(destinations.book('GSPOT-DA'))).toEqual({ kind: 'book', id: 'GSPOT-DA' });
    expect(parseDestination(destinations.marketWatch('EL-FWD'))).toEqual({ kind: 'marketWatch', id: 'EL-FWD' });
    expect(parseDestination(destinations.phase('GAS-BG'))).toEqual({ kind: 'phase', id: 'GAS-BG' });
    expect(parseDestination(destinations.myOrders)).toEqual({ kind: 'myOrders' });
    expect(parseDestination(destinations.notifications)).toEqual({ kind: 'notifications' });
  });

  it('refuses unknown names and odd ids', () => {
    expect(parseDestination('/topic/other.X')).toBeNull();
    expect(parseDestination('/topic/book.')).toBeNull();
    expect(parseDestination('/topic/book.a/b')).toBeNull();
    expect(parseDestination('/user/queue/orders/extra')).toBeNull();
  });
});
