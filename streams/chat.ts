/**
 * The chat over the one STOMP connection: events on the private /user/queue/chat (messages,
 * presence, read marks, refusals of the user's own sends) and SENDs to /app/chat.
 */
import type { Observable } from 'rxjs';
import { chatEventSchema, type ChatEvent, type ChatOutgoing } from '../protocol/chat.ts';
import { destinations } from '../protocol/destinations.ts';
import type { Connection } from './connection.ts';

/** Cold: every subscriber has its own STOMP subscription (share it). Restored after every reconnect. */
export function chatEvents$(connection: Connection): Observable<ChatEvent> {
  return connection.watch$(destinations.chat, chatEventSchema);
}

/** Sends a message; false when not connected (nothing was sent). The answer arrives on chatEvents$. */
export function sendChatMessage(connection: Connection, message: ChatOutgoing): boolean {
  return connection.publish(destinations.chatSend, message);
}
