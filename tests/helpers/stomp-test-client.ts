import { Client, type IMessage } from '@stomp/stompjs';
import { WebSocket } from 'ws';

/** A @stomp/stompjs client over a real socket that collects what each destination receives. */
export interface CollectingClient {
  client: Client;
  received: Map<string, unknown[]>;
  subscribe(destination: string): Promise<void>;
  /** Waits until `predicate` holds for the messages of `destination`. */
  waitFor<T>(destination: string, predicate: (messages: T[]) => boolean, timeoutMs?: number): Promise<T[]>;
  close(): Promise<void>;
}

export async function connectCollector(port: number, token: string): Promise<CollectingClient> {
  const received = new Map<string, unknown[]>();
  const client = new Client({
    webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(frame.headers.code ?? frame.body));
    client.activate();
  });
  let receiptSeq = 0;
  return {
    client,
    received,
    subscribe(destination) {
      received.set(destination, received.get(destination) ?? []);
      const receipt = `sub-${++receiptSeq}`;
      const done = new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve()));
      client.subscribe(destination, (message: IMessage) => received.get(destination)!.push(JSON.parse(message.body)), { receipt });
      return done;
    },
    async waitFor<T>(destination: string, predicate: (messages: T[]) => boolean, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const messages = (received.get(destination) ?? []) as T[];
        if (predicate(messages)) return messages;
        if (Date.now() > deadline) throw new Error(`timed out waiting on ${destination}: ${JSON.stringify(messages).slice(0, 500)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => client.deactivate(),
  };
}
