import { useActorRef } from '@xstate/react';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { chatMachine, chatMachineFor, type ChatApi } from '../../../machines/chat.machine.ts';
import type { Connection } from '../../../streams/connection.ts';
import { useAuth } from '../../auth/use-auth.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';
import { chatApi } from './chat-api.ts';

export type ChatActor = ActorRefFrom<typeof chatMachine>;

const ChatContext = createContext<ChatActor | null>(null);

/** The chat actor of the signed-in user, or null (signed out, or outside the default layout). */
export function useChatActor(): ChatActor | null {
  return useContext(ChatContext);
}

function LiveChat({ connection, me, api, onReady }: { connection: Connection; me: string; api: ChatApi; onReady: (actor: ChatActor | null) => void }) {
  const machine = useMemo(() => chatMachineFor(connection, api), [connection, api]);
  const actor = useActorRef(machine, { input: { me } });
  useEffect(() => {
    onReady(actor);
    return () => onReady(null);
  }, [actor, onReady]);
  return null;
}

/**
 * One chat machine per signed-in user on the app's STOMP connection. The machine lives beside the
 * children (not around them), so the page does not remount when the connection comes or goes.
 */
export function ChatProvider({ children, api = chatApi }: { children: ReactNode; api?: ChatApi }) {
  const realtime = useRealtime();
  const { user } = useAuth();
  const [actor, setActor] = useState<ChatActor | null>(null);
  return (
    <ChatContext.Provider value={realtime && user ? actor : null}>
      {realtime && user && <LiveChat key={`${user.userId}`} connection={realtime.connection} me={user.userId} api={api} onReady={setActor} />}
      {children}
    </ChatContext.Provider>
  );
}

/** For tests and stories: a given actor. */
export function ChatActorProvider({ actor, children }: { actor: ChatActor; children: ReactNode }) {
  return <ChatContext.Provider value={actor}>{children}</ChatContext.Provider>;
}
