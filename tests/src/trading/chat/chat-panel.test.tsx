// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromEventObservable, fromPromise, waitFor } from 'xstate';
import { chatMachine, type ChatOverview, type ChatStreamEvent, type OutboxCommand } from '../../../../machines/chat.machine.ts';
import type { ChatMessagesPage } from '../../../../protocol/chat.ts';
import { ChatButton } from '../../../../src/trading/chat/ChatButton.tsx';
import { ChatPanelFor } from '../../../../src/trading/chat/ChatPanel.tsx';
import { ChatActorProvider } from '../../../../src/trading/chat/ChatProvider.tsx';
import { WithIntl } from '../../components/intl.tsx';

const me = 'U-002';
const at = '2026-11-22T07:05:00.000Z'; // 09:05 in Bucharest
const overview: ChatOverview = {
  contacts: [
    { userId: 'U-003', username: 'broker2', name: 'Mihai Ionescu', roles: ['broker'], agencyId: 'AG-CARP', online: true },
    { userId: 'U-001', username: 'admin', name: 'Exchange Operator', roles: ['administrator'], agencyId: null, online: false },
  ],
  conversations: [{ with: 'U-003', lastMessage: { id: '5', from: 'U-003', to: me, text: 'Aveți 100 MWh?', at }, unread: 3 }],
};
const history: ChatMessagesPage = {
  messages: [
    { id: '4', from: me, to: 'U-003', text: 'Bună ziua', at },
    { id: '5', from: 'U-003', to: me, text: 'Aveți 100 MWh?', at },
  ],
  hasMore: false,
};

beforeEach(() => {
  // "Today" in Bucharest, so message times show without the date.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('chat-history') ? 400 : 0;
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function setup(locale: 'en' | 'ro' = 'en') {
  const stream = new Subject<ChatStreamEvent>();
  const published: OutboxCommand['message'][] = [];
  const machine = chatMachine.provide({
    actors: {
      chatEvents: fromEventObservable(() => stream),
      outbox: fromCallback<OutboxCommand>(({ receive }) => receive((command) => published.push(command.message))),
      loadOverview: fromPromise(async () => overview),
      loadHistory: fromPromise(async () => history),
      markRead: fromPromise<unknown, { with: string }>(async () => null),
    },
  });
  const actor = createActor(machine, { input: { me, clientPrefix: 'v' } }).start();
  await waitFor(actor, (s) => s.matches({ overview: 'ready' }));
  render(
    <WithIntl locale={locale}>
      <ChatActorProvider actor={actor}>
        <ChatButton />
        <ChatPanelFor actor={actor} />
      </ChatActorProvider>
    </WithIntl>,
  );
  return { actor, stream, published };
}

describe('chat panel', () => {
  it('shows the unread count on the header button and opens the panel with active brokers and conversations', async () => {
    const { actor } = await setup();
    const button = screen.getByRole('button', { name: 'Chat, 3 unread messages' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    const panel = screen.getByRole('complementary', { name: 'Chat' });
    const active = within(panel).getByRole('region', { name: 'Active brokers' });
    expect(within(active).getAllByRole('button').map((b) => b.textContent)).toEqual(['Mihai Ionescu (online)Broker']);
    const conversations = within(panel).getByRole('region', { name: 'Conversations' });
    expect(within(conversations).getByLabelText('3 unread').textContent).toBe('3');
    expect(conversations.textContent).toContain('09:05 · Aveți 100 MWh?');
    expect(within(panel).getByRole('region', { name: 'Other contacts' }).textContent).toContain('Exchange Operator');
    fireEvent.keyDown(panel, { key: 'Escape' });
    expect(actor.getSnapshot().matches({ panel: 'closed' })).toBe(true);
  });

  it('opens a conversation: history with times in Bucharest, Enter sends, Shift+Enter does not, the counter and the limit', async () => {
    const { actor, published } = await setup();
    actor.send({ type: 'OPEN_PANEL' });
    await act(async () => {
      fireEvent.click((await screen.findAllByRole('button', { name: /Mihai Ionescu/ }))[0]!);
    });
    const log = await screen.findByRole('log', { name: 'Messages with Mihai Ionescu' });
    await screen.findByText('Aveți 100 MWh?', { selector: '.chat-text' });
    expect([...log.querySelectorAll('.chat-text')].map((node) => node.textContent)).toEqual(['Bună ziua', 'Aveți 100 MWh?']);
    expect(log.querySelector('time')!.textContent).toBe('09:05');
    // Shown in the open panel: read, so the header count is gone.
    expect(screen.getByRole('button', { name: 'Chat' })).toBeTruthy();

    const input = screen.getByRole('textbox', { name: 'Message to Mihai Ionescu' });
    fireEvent.change(input, { target: { value: 'Da, la 150,00' } });
    expect(screen.getByText('13 / 2,000')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(published).toEqual([]);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(published).toEqual([{ to: 'U-003', text: 'Da, la 150,00', clientId: 'v-1' }]);
    expect((input as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByText('Sending…')).toBeTruthy();

    fireEvent.change(input, { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('2,001 / 2,000').className).toContain('chat-counter-over');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(published).toHaveLength(1);
  });

  it('shows a refusal translated, in Romanian, with retry and discard', async () => {
    const { actor, stream, published } = await setup('ro');
    actor.send({ type: 'OPEN_PANEL' });
    actor.send({ type: 'OPEN_CONVERSATION', with: 'U-003' });
    const input = await screen.findByRole('textbox', { name: 'Mesaj către Mihai Ionescu' });
    fireEvent.change(input, { target: { value: 'Ofertă' } });
    fireEvent.click(screen.getByRole('button', { name: 'Trimiteți' }));
    act(() => stream.next({ type: 'chat.refusal', clientId: 'v-1', code: 'CHAT_RATE_LIMITED', params: { retryAfterSeconds: 7 } }));
    expect(screen.getByRole('alert').textContent).toContain('Prea multe mesaje. Încercați din nou peste 7 s.');
    fireEvent.click(screen.getByRole('button', { name: 'Trimiteți din nou' }));
    expect(published.map((m) => m.clientId)).toEqual(['v-1', 'v-1']);
    act(() => stream.next({ type: 'chat.message', message: { id: '6', from: me, to: 'U-003', text: 'Ofertă', at }, clientId: 'v-1' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Ofertă', { selector: '.chat-text' })).toBeTruthy();
    act(() => stream.next({ type: 'chat.read', reader: 'U-003', partner: me, upTo: '6' }));
    expect(screen.getByText('Ofertă', { selector: '.chat-text' }).nextElementSibling!.textContent).toBe('09:05 · Văzut');
  });
});
