// @vitest-environment jsdom
/** Exactly one stompjs client and one socket under React StrictMode's mount, unmount, mount. */
import { act, cleanup, render } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnection, createConnectionHub, createdClientCount, type Connection } from '../../streams/connection.ts';
import { useConnection } from '../../streams/react.ts';
import { FakeStompServer, uniqueUrl } from './fake-stomp-server.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useConnection', () => {
  it('shares one connection between components and StrictMode remounts, and disconnects after the last unmount', async () => {
    vi.useFakeTimers();
    const url = uniqueUrl('strict');
    const server = new FakeStompServer(url);
    const hub = createConnectionHub();
    const acquire = vi.spyOn(hub, 'acquire');
    const create = vi.fn(() => createConnection({ url, getToken: () => 't', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 10, maxMs: 10 } }));
    const seen = new Set<Connection>();
    function Status({ name }: { name: string }) {
      const connection = useConnection('main', create, hub);
      if (connection) seen.add(connection);
      return <span data-testid={name}>{connection ? 'yes' : 'no'}</span>;
    }
    let hideSecond: () => void = () => {};
    function App() {
      const [second, setSecond] = useState(true);
      hideSecond = () => setSecond(false);
      return (
        <>
          <Status name="a" />
          {second ? <Status name="b" /> : null}
        </>
      );
    }
    const before = createdClientCount();
    const view = render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(view.getByTestId('a').textContent).toBe('yes');
    // StrictMode ran each effect twice: 2 components x 2 acquires, still one connection.
    expect(acquire).toHaveBeenCalledTimes(4);
    expect(create).toHaveBeenCalledTimes(1);
    expect(createdClientCount() - before).toBe(1);
    expect(seen.size).toBe(1);
    expect(server.connections).toHaveLength(1);
    expect(hub.references('main')).toBe(2);
    await act(async () => {
      hideSecond();
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(hub.references('main')).toBe(1);
    expect(server.frames('DISCONNECT')).toHaveLength(0);
    view.unmount();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(hub.size()).toBe(0);
    expect(server.frames('DISCONNECT')).toHaveLength(1);
    expect(server.connections).toHaveLength(1);
    server.close();
  });
});
