/**
 * Session phase of one market (or of one asset): unknown until the phase stream says, then opening,
 * trading, closing, suspended or closed, exactly as the server says. Which order actions the phase
 * allows are tags, read from the one table the engine also refuses by (protocol/phase-actions.ts).
 */
import { EMPTY, filter, map, type Observable } from 'rxjs';
import { assign, fromEventObservable, setup, type SnapshotFrom } from 'xstate';
import type { SessionPhase } from '../protocol/enums.ts';
import { allowedActions, phaseRefusalOf, type PhaseAction } from '../protocol/phase-actions.ts';
import type { PhaseUpdate } from '../protocol/reference.ts';
import type { ClientError } from '../streams/api.ts';
import type { Connection } from '../streams/connection.ts';
import { sessionPhase$ } from '../streams/market-data.ts';

export type SessionPhaseEvent = {
  type: 'PHASE';
  phase: SessionPhase;
  sessionDate: string;
  at: string;
  /** The market's next scheduled phase and its start (ISO), null when none is scheduled. */
  nextPhase: SessionPhase | null;
  nextPhaseAt: string | null;
};

export interface SessionPhaseInput {
  marketId: string;
  /**
   * Follow one asset's phase (the operator can suspend or move one asset apart from its market);
   * null: the market.
   */
  assetId?: string | null;
}

export interface SessionPhaseContext {
  marketId: string;
  assetId: string | null;
  phase: SessionPhase | null;
  sessionDate: string | null;
  since: string | null;
  nextPhase: SessionPhase | null;
  nextPhaseAt: string | null;
}

export const orderActionTags = ['canPlace', 'canModify', 'canChangePrice', 'canCancel', 'canSuspend', 'canActivate'] as const;

/**
 * Does an update concern this machine. A market machine takes its market's own updates. An asset
 * machine takes the market's updates too, then the asset's own, which win: the server sends an
 * asset-level update only where the asset's phase is not its market's (on subscribe it sends the
 * market's phase, then the assets that differ; a market change is followed by the asset changes
 * it causes), so without the market's updates an asset machine would stay `unknown`.
 */
export function phaseUpdateMatches(input: SessionPhaseInput, update: PhaseUpdate): boolean {
  if (update.marketId !== input.marketId) return false;
  const assetId = input.assetId ?? null;
  return update.assetId === null || update.assetId === assetId;
}

export function phaseUpdateToEvent(update: PhaseUpdate): SessionPhaseEvent {
  return { type: 'PHASE', phase: update.phase, sessionDate: update.sessionDate, at: update.at, nextPhase: update.nextPhase ?? null, nextPhaseAt: update.nextPhaseAt ?? null };
}

const phaseUpdates = fromEventObservable<SessionPhaseEvent, SessionPhaseInput>(() => EMPTY);

const tagOf: Record<PhaseAction, string> = {
  place: 'canPlace',
  placeImmediate: 'canPlaceImmediate',
  modify: 'canModify',
  changePrice: 'canChangePrice',
  cancel: 'canCancel',
  suspend: 'canSuspend',
  activate: 'canActivate',
  matching: 'matching',
};

/** The machine state of a phase: its tags are the actions protocol's table allows in it. */
const phaseState = (phase: SessionPhase) => ({ tags: allowedActions(phase).map((action) => tagOf[action]) });

const toPhase = (phase: SessionPhase) => ({
  guard: { type: 'isPhase' as const, params: { phase } },
  target: `.${phase}`,
  actions: 'recordPhase' as const,
});

export const sessionPhaseMachine = setup({
  types: {
    context: {} as SessionPhaseContext,
    events: {} as SessionPhaseEvent,
    input: {} as SessionPhaseInput,
  },
  actors: { phaseUpdates },
  guards: {
    isPhase: ({ event }, params: { phase: SessionPhase }) => event.phase === params.phase,
  },
  actions: {
    recordPhase: assign(({ event }) => ({ phase: event.phase, sessionDate: event.sessionDate, since: event.at, nextPhase: event.nextPhase, nextPhaseAt: event.nextPhaseAt })),
  },
}).createMachine({
  id: 'sessionPhase',
  context: ({ input }) => ({ marketId: input.marketId, assetId: input.assetId ?? null, phase: null, sessionDate: null, since: null, nextPhase: null, nextPhaseAt: null }),
  initial: 'unknown',
  invoke: { id: 'phaseUpdates', src: 'phaseUpdates', input: ({ context }) => ({ marketId: context.marketId, assetId: context.assetId }) },
  on: {
    PHASE: [toPhase('opening'), toPhase('trading'), toPhase('closing'), toPhase('suspended'), toPhase('closed')],
  },
  states: {
    unknown: {},
    opening: phaseState('opening'),
    trading: phaseState('trading'),
    closing: phaseState('closing'),
    suspended: phaseState('suspended'),
    closed: phaseState('closed'),
  },
});

export type SessionPhaseSnapshot = SnapshotFrom<typeof sessionPhaseMachine>;

/** The machine fed by the phase stream of the connection. */
export function sessionPhaseMachineFor(connection: Connection) {
  return sessionPhaseMachine.provide({
    actors: {
      phaseUpdates: fromEventObservable<SessionPhaseEvent, SessionPhaseInput>(({ input }) =>
        sessionPhase$(connection, input.marketId).pipe(
          filter((update) => phaseUpdateMatches(input, update)),
          map(phaseUpdateToEvent),
        ),
      ),
    },
  });
}

/** The machine fed by the updates `updatesOf` gives for its market or asset (the session's shared fold). */
export function sessionPhaseMachineOf(updatesOf: (input: SessionPhaseInput) => Observable<PhaseUpdate>) {
  return sessionPhaseMachine.provide({
    actors: {
      phaseUpdates: fromEventObservable<SessionPhaseEvent, SessionPhaseInput>(({ input }) => updatesOf(input).pipe(map(phaseUpdateToEvent))),
    },
  });
}

/** The same, from any stream of phase updates (tests, replay). */
export function sessionPhaseMachineFrom(updates: Observable<PhaseUpdate>) {
  return sessionPhaseMachine.provide({
    actors: {
      phaseUpdates: fromEventObservable<SessionPhaseEvent, SessionPhaseInput>(({ input }) =>
        updates.pipe(
          filter((update) => phaseUpdateMatches(input, update)),
          map(phaseUpdateToEvent),
        ),
      ),
    },
  });
}

export interface PhasePermissions {
  phase: SessionPhase | null;
  canPlace: boolean;
  canModify: boolean;
  canChangePrice: boolean;
  canCancel: boolean;
  canSuspend: boolean;
  canActivate: boolean;
}

/** What the phase allows; null while the phase is unknown (the server decides). */
export function phasePermissions(snapshot: SessionPhaseSnapshot): PhasePermissions | null {
  if (snapshot.matches('unknown')) return null;
  return {
    phase: snapshot.context.phase,
    canPlace: snapshot.hasTag('canPlace'),
    canModify: snapshot.hasTag('canModify'),
    canChangePrice: snapshot.hasTag('canChangePrice'),
    canCancel: snapshot.hasTag('canCancel'),
    canSuspend: snapshot.hasTag('canSuspend'),
    canActivate: snapshot.hasTag('canActivate'),
  };
}

export type OrderAction = 'place' | 'modify' | 'cancel' | 'suspend' | 'activate';

/**
 * The refusal the server would give for `action` in this phase (same codes), or null when allowed.
 * `priceChange` matters for modify: no price change in closing.
 */
export function phaseRefusal(permissions: PhasePermissions | null, action: OrderAction, priceChange = false): ClientError | null {
  if (!permissions) return null;
  const phase = permissions.phase ?? 'closed';
  return phaseRefusalOf(phase, action) ?? (action === 'modify' && priceChange ? phaseRefusalOf(phase, 'changePrice') : null);
}
