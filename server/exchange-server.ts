import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServerHealth } from '../protocol/health.ts';
import { AuditLog } from './audit/audit-log.ts';
import { auditOf } from './audit/audit-of.ts';
import { auditTrailRoutes } from './http/audit.routes.ts';
import { AuthService } from './auth/auth-service.ts';
import { LoginLimiter, type LoginLimiterOptions } from './auth/login-limiter.ts';
import { TokenService } from './auth/tokens.ts';
import { loadDemoExchangeIfEmpty } from './demo/demo-exchange.ts';
import { ChatService, type ChatServiceOptions } from './chat/chat-service.ts';
import { attachGateway, sendDispatcher } from './gateway-wiring.ts';
import { chatRoutes } from './http/chat.routes.ts';
import { startCollateralClearing, type CollateralClearing } from './clearing/collateral-module.ts';
import { collateralRoutes } from './http/collateral.routes.ts';
import { loadDemoCollateral } from './demo/demo-collateral.ts';
import { settlementRoutes } from './http/settlement.routes.ts';
import { documentsRoutes } from './http/documents.routes.ts';
import { clientScopeOf } from './clearing/documents/document-source.ts';
import { SettlementService } from './clearing/settlement-service.ts';
import { loadDemoSettlementIfEmpty } from './demo/demo-settlement.ts';
import { loadDemoWorkflowsIfEmpty } from './demo/demo-workflows.ts';
import type { StompGateway, StompGatewayOptions } from './gateway/stomp-gateway.ts';
import { accountRoutes } from './http/account.routes.ts';
import { API_PREFIX, createHttpApp } from './http/app.ts';
import type { HttpTimeouts } from './http/connection-guard.ts';
import { orderHistoryRoutes } from './http/order-history.routes.ts';
import { orderTimelineRoutes } from './http/order-timeline.routes.ts';
import { ordersRoutes } from './http/orders.routes.ts';
import { workspacesRoutes } from './http/workspaces.routes.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import { loadOrCreateSecret } from './store/secrets.repository.ts';
import { openStore, type Store } from './store/store.ts';
import { sessionTimetables, setupCommands, type SessionTimetables } from './trading/engine-setup.ts';
import { ScheduleKeeper } from './trading/schedule-keeper.ts';
import { MarketDataPublisher } from './trading/market-data.ts';
import { NotificationPublisher, usersByMarket } from './trading/notifications.ts';
import { ReadModelProjector } from './trading/read-model-projector.ts';
import { ReadYourWrites } from './trading/read-your-writes.ts';
import type { JournalIo } from './engine/journal/journal.ts';
import { Sequencer } from './trading/sequencer.ts';
import { bucharestDate } from './trading/time.ts';
import { TradingService } from './trading/trading-service.ts';
import { CancelOnDisconnect } from './trading/cancel-on-disconnect.ts';
import { OrderEntry } from './trading/order-entry.ts';
import { bilateralRoutes } from './http/bilateral.routes.ts';
import { workflowsRoutes } from './http/workflows.routes.ts';
import { engineClearing } from './workflows/workflow-environment.ts';
import { TradingLedger } from './workflows/trading-ledger.ts';
import type { WorkflowLedger } from './workflows/workflow-ledger.ts';
import { WorkflowPublisher } from './workflows/workflow-publisher.ts';
import { WorkflowService } from './workflows/workflow-service.ts';
import { contractsRoutes } from './http/contracts.routes.ts';
import { whitelistRoutes } from './http/whitelist.routes.ts';
import { qaRoutes } from './http/qa.routes.ts';
import { ContractService } from './workflows/contracts.ts';
import { WhitelistService } from './workflows/whitelist.ts';
import { participantsRoutes } from './http/participants.routes.ts';
import { ParticipantService } from './participants/participant-service.ts';
import { OperatorFeed } from './operator/operator-feed.ts';
import { MarketPhaseControl } from './operator/market-phases.ts';
import { operatorConsoleRoutes } from './http/operator.routes.ts';
import { SettlementRepository } from './store/settlement.repository.ts';

export interface ExchangeServerOptions {
  port: number;
  host: string;
  /** Data directory: PGlite (unless databaseUrl) and the engine's journal. Undefined: in memory and a temporary journal (tests). */
  dataDir: string | undefined;
  databaseUrl: string | undefined;
  clientDir: string;
  logRequests?: boolean;
  trustProxy?: boolean;
  /** The clock; tests move it to pass TOTP steps and token expiry. */
  now?: () => number;
  loginLimits?: LoginLimiterOptions;
  /** Book and market-watch conflation window (ms); 0 sends a delta per command. */
  conflateMs?: number;
  /** Lifetime of sign-in tokens in seconds (default and maximum 1800). */
  tokenTtlSeconds?: number;
  /** Ms between engine time ticks; 0 disables (tests tick by hand). */
  tickIntervalMs?: number;
  /** Opens every closed market for trading at start (the demo exchange's default). */
  openMarketsOnStart?: boolean;
  /** Daily session timetables per market kind (default: the demo's); null: no schedule, phases change only by command. */
  timetables?: SessionTimetables;
  /** HTTP header, request, keep-alive and idle timeouts in ms (server/http/connection-guard.ts). */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Open sockets allowed per remote address, HTTP and STOMP together (default 256; 0: no cap). */
  maxConnectionsPerAddress?: number;
  /** STOMP sessions one user may hold at once (default 100; 0: no cap). */
  maxSessionsPerUser?: number;
  /** Chat send limits and the presence grace (tests shorten them). */
  chat?: Pick<ChatServiceOptions, 'rateLimits' | 'presenceGraceMs'>;
  /** The journal's disk operations (fault tests make them fail). */
  journalIo?: JournalIo;
  /** Gives a database without settlement history the demo's (server/demo/demo-settlement.ts); `npm start` sets it. */
  demoSettlement?: boolean;
  /** Gives a database without workflow instances the demo's OTC deals, transfers, contracts and whitelist (server/demo/demo-workflows.ts); `npm start` sets it. */
  demoWorkflows?: boolean;
  /** The workflows' engine port (tests pass an in-memory one); default: the engine's, through TradingService (server/workflows/trading-ledger.ts). */
  workflowLedger?: (deps: { store: Store; sequencer: Sequencer }) => WorkflowLedger;
  /** The longest a read with `?minSeq=` waits for the data to catch up, ms (default 1000; server/trading/read-your-writes.ts). */
  readWaitMs?: number;
  /** Ms between workflow timer sweeps (default 5000; 0: only at start, tests sweep by hand). */
  workflowTimerIntervalMs?: number;
  /** Where GET /qa/recordings looks (default fixtures/sessions/). */
  qaSessionsDir?: string;
}

export interface ExchangeServer {
  url: string;
  port: number;
  app: FastifyInstance;
  store: Store;
  auth: AuthService;
  gateway: StompGateway;
  sequencer: Sequencer;
  marketData: MarketDataPublisher;
  projector: ReadModelProjector;
  trading: TradingService;
  /** The collateral side of clearing: `refresh` and `notify` for the settlement side. */
  clearing: CollateralClearing;
  settlement: SettlementService;
  /** OTC deals, transfers, margin activations (and the contract and whitelist kinds) on one runner. */
  workflows: WorkflowService;
  /** The audit trail: operator, workflow and security events (issue 16). */
  audit: AuditLog;
  /** Clients and brokers with their suspension; the operator suspends and reinstates them (issue 16). */
  participants: ParticipantService;
  /** The operator console's feed (issue 16): `changed()` after a participant change publishes a new snapshot. */
  operator: OperatorFeed;
  close(): Promise<void>;
}

/** Composes store, auth, engine (sequencer + journal), HTTP and the STOMP gateway on one port. */
export async function startExchangeServer(options: ExchangeServerOptions): Promise<ExchangeServer> {
  const now = options.now ?? Date.now;
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step();
  };
  try {
    // The store locks a PGlite directory itself; with PostgreSQL the journal still needs the lock.
    if (options.databaseUrl && options.dataDir) cleanups.push(await lockDataDir(options.dataDir));
    const store = await openStore({ dataDir: options.databaseUrl ? undefined : options.dataDir, databaseUrl: options.databaseUrl });
    cleanups.push(() => store.close());
    if (await loadDemoExchangeIfEmpty(store, new Date(now()))) await loadDemoCollateral(store, new Date(now()));
    if (options.demoSettlement) await loadDemoSettlementIfEmpty(store, new Date(now()));
    const audit = new AuditLog(store.db, now);
    // Runs before the store closes (cleanups run in reverse): the minute's coalesced counts are written.
    cleanups.push(() => audit.close());

    const tokens = new TokenService(await loadOrCreateSecret(store.db, 'jwt-signing-key'), now, options.tokenTtlSeconds);
    const auth = new AuthService({ store, tokens, now, limiter: new LoginLimiter(options.loginLimits), audit });
    // Its hashing threads stop after the HTTP server (cleanups run in reverse): no sign-in is cut short.
    cleanups.push(() => auth.close());

    let journalDir: string;
    if (options.dataDir) journalDir = join(options.dataDir, 'journal');
    else {
      journalDir = mkdtempSync(join(tmpdir(), 'exchange-journal-'));
      cleanups.push(() => rmSync(journalDir, { recursive: true, force: true }));
    }
    const watermark = await store.trading.watermark();
    const projector = new ReadModelProjector(store.trading, watermark);
    const { sequencer, replayGap } = await Sequencer.open({
      journalDir,
      now,
      tickIntervalMs: options.tickIntervalMs ?? 1000,
      journalIo: options.journalIo,
      replayFromSeq: watermark,
      onReplayedEvents: (events, seq) => projector.onEvents(events, seq),
      // A snapshot lets the journal drop records: only once the read models hold them.
      beforeSnapshotWrite: async (seq) => {
        if (!(await projector.caughtUpTo(seq))) throw new Error(`read models behind journal record ${seq}; snapshot postponed`);
      },
    });
    if (replayGap) console.warn(`Read models miss journal records ${replayGap.fromSeq}-${replayGap.toSeq} (covered by a snapshot); orders, transactions and statistics of that span are not in the store.`);
    cleanups.push(() => sequencer.close());
    const timetables = options.timetables === undefined ? sessionTimetables : options.timetables;
    for (const command of await setupCommands(store, now(), timetables)) await sequencer.submit(command);
    // Renews the session schedules before they run out, for a server that runs for months.
    const scheduleKeeper = new ScheduleKeeper({ sequencer, markets: () => store.reference.markets(), timetables, now });
    scheduleKeeper.start();
    cleanups.push(async () => scheduleKeeper.stop());

    const assets = await store.reference.assets();
    const marketOfAsset = new Map(assets.map((asset) => [asset.id, asset.marketId]));
    const { usersOfClient, clientsOfUser } = await userClientIndex(store);
    const trading = new TradingService({
      sequencer,
      marketOfAsset,
      now,
      storedOrder: (orderId) => store.trading.order(orderId),
      storedTransaction: (transactionId) => store.trading.transaction(transactionId),
      readModelsFlushed: () => projector.flushed(5_000),
    });

    const app = await createHttpApp({
      store,
      auth,
      clientDir: options.clientDir,
      logger: options.logRequests ?? false,
      trustProxy: options.trustProxy ?? false,
      timeouts: options.httpTimeouts,
      maxConnectionsPerAddress: options.maxConnectionsPerAddress,
      sessionDateOf: (marketId) => sequencer.engine.getMarketPhase(marketId)?.sessionDate || bucharestDate(now()),
      health: () => serverHealth(sequencer, projector),
      // Every 403 a route answers is a forbidden attempt in the audit trail (coalesced per minute).
      onRefusal: (request, error) => {
        if (error.code !== 'FORBIDDEN') return;
        const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
        audit.note({ category: 'security', action: 'access.forbidden', ...auditOf(request, request.user), subject: route.slice(0, 200), outcome: 'refused', code: 'FORBIDDEN', details: { ...error.params } });
      },
    });
    cleanups.push(() => app.close());
    // The gateway needs the HTTP server and the publisher needs the gateway: the hook is bound once both exist.
    const gatewayHooks: Pick<StompGatewayOptions, 'onSubscribe'> = {};
    const chat = new ChatService({ store, now, ...options.chat });
    await chat.load();
    cleanups.push(() => chat.close());
    // Cancel-on-disconnect (issue 16, item 6): a session's CONNECT header arms the kill switch for its user.
    const cancelOnDisconnect = new CancelOnDisconnect({
      cancelAll: async (userId) => {
        const user = await store.users.findById(userId);
        if (user) await trading.cancelAll(user);
      },
      onError: (userId, error) => console.error(`cancel-on-disconnect of user ${userId} failed:`, error),
    });
    cleanups.push(() => cancelOnDisconnect.close());
    const gateway = await attachGateway(app.server, auth, store, {
      onSubscribe: (principal, destination, reply) => gatewayHooks.onSubscribe?.(principal, destination, reply),
      // SEND: chat messages and order entry over STOMP (issue 16, item 4), by destination.
      onSend: sendDispatcher({ chatSend: chat.onSend, orderEntry: new OrderEntry({ trading, userOf: (userId) => auth.currentUser(userId) }).onSend }),
      onSessionOpened: chat.onSessionOpened,
      onSessionClosed: chat.onSessionClosed,
      // A SUBSCRIBE or SEND to a destination the user may not use is a forbidden attempt (coalesced per minute).
      onRefused: (refusal, principal, remoteAddress) => {
        if (refusal.code !== 'STOMP_DESTINATION_FORBIDDEN') return;
        audit.note({
          category: 'security',
          action: 'access.forbidden',
          actorUserId: principal?.userId ?? null,
          actorRole: principal ? principal.roles.join(',') || null : null,
          subject: String(refusal.params.destination ?? '').slice(0, 200),
          outcome: 'refused',
          code: refusal.code,
          remoteAddress: remoteAddress ?? null,
          details: { ...refusal.params },
        });
      },
      now,
      ...(options.maxSessionsPerUser === undefined ? {} : { maxConnectionsPerUser: options.maxSessionsPerUser === 0 ? Number.POSITIVE_INFINITY : options.maxSessionsPerUser }),
    }, cancelOnDisconnect);
    chat.attach(gateway);
    cleanups.push(() => gateway.close());
    // A password change or reset revokes the user's tokens: the sessions opened with them end too (issue 13, item 6).
    cleanups.push(auth.onCredentialsChanged((userId) => void gateway.endSessionsOf(userId, 'AUTH_TOKEN_REVOKED')));
    const marketData = new MarketDataPublisher({
      engine: sequencer.engine,
      gateway,
      assets: assets.map((asset) => ({ id: asset.id, marketId: asset.marketId, type: asset.spec.type })),
      usersOfClient: (clientCode) => usersOfClient.get(clientCode) ?? [],
      clientsOfUser: (userId) => clientsOfUser.get(userId) ?? [],
      lastJournalSeq: () => sequencer.lastJournalSeq,
      conflateMs: options.conflateMs ?? 0,
      now,
    });
    cleanups.push(() => marketData.close());
    const marketUsers = await usersByMarket(store);
    const notifications = new NotificationPublisher({
      gateway,
      usersOfClient: (clientCode) => usersOfClient.get(clientCode) ?? [],
      usersOfMarket: (marketId) => marketUsers.get(marketId) ?? [],
    });
    gatewayHooks.onSubscribe = marketData.onSubscribe;
    const clearing = await startCollateralClearing({ store, sequencer, gateway, now, readModelsSettled: () => projector.settled() });
    cleanups.push(() => clearing.stop());
    // Participant suspension (issue 16, item 6): journaled engine commands, audited routes; the console shows each change at once.
    const participantChanges: { onChange?: () => void } = {};
    const participants = new ParticipantService({
      db: store.db,
      sequencer,
      usersOfClient: (clientCode) => usersOfClient.get(clientCode) ?? [],
      notify: (userIds, change, at) => {
        notifications.participantChanged(userIds, change, at);
        participantChanges.onChange?.();
      },
    });
    // The operator console (issue 16): its snapshot on /user/queue/operator and the audited phase changes.
    const settlementRuns = new SettlementRepository(store.db);
    const operator = new OperatorFeed({
      sequencer,
      gateway,
      reference: store.reference,
      participants: () => participants.list(),
      readModelBehindBy: () => projector.health.behindBy,
      lastSettlementRuns: () => settlementRuns.lastRunPerMarket(),
      openMarginCalls: () => clearing.engineFunds.openMarginCalls(),
      userNames: async () => new Map((await store.db.query<{ id: string; name: string }>('select id, name from users')).map((row) => [row.id, row.name])),
      timetables,
      now,
    });
    operator.start();
    participantChanges.onChange = () => operator.changed();
    cleanups.push(() => operator.close());
    gatewayHooks.onSubscribe = (principal, destination, reply) => {
      if (!operator.onSubscribe(principal, destination, reply)) marketData.onSubscribe(principal, destination, reply);
    };
    const phases = new MarketPhaseControl({ engine: sequencer.engine, trading, audit });
    await app.register(operatorConsoleRoutes({ auth, feed: operator, phases }), { prefix: API_PREFIX });
    // Read-your-writes: the `minSeq` reads of books, transactions and orders (issue 16, item 3).
    const reads = new ReadYourWrites({ sequencer, marketData, projector, waitMs: options.readWaitMs });
    cleanups.push(() => reads.close());
    await app.register(ordersRoutes({ auth, store, trading, marketOfAsset, phases, reads }), { prefix: API_PREFIX });
    await app.register(bilateralRoutes({ auth, trading, marketOfAsset }), { prefix: API_PREFIX });
    await app.register(orderHistoryRoutes({ auth, store, projector, marketOfAsset }), { prefix: API_PREFIX });
    await app.register(orderTimelineRoutes({ auth, store, projector, marketOfAsset }), { prefix: API_PREFIX });
    await app.register(workspacesRoutes({ auth, store }), { prefix: API_PREFIX });
    await app.register(accountRoutes({ auth, store, sequencer, projector, assets }), { prefix: API_PREFIX });
    await app.register(chatRoutes({ auth, chat }), { prefix: API_PREFIX });
    await app.register(collateralRoutes({ auth, store, clearing, now, audit }), { prefix: API_PREFIX });
    const settlement = new SettlementService({
      store,
      sequencer,
      flushed: () => projector.flushed(5_000),
      now,
      notify: (change) => {
        clearing.notify(change);
        if (change.kind === 'settlement') operator.changed();
      },
      refresh: (clientCodes) => clearing.refresh(clientCodes),
    });
    await settlement.start();
    cleanups.push(async () => {
      settlement.stop();
      await settlement.idle();
    });
    await app.register(settlementRoutes({ auth, store, settlement, now, audit }), { prefix: API_PREFIX });
    await app.register(auditTrailRoutes({ auth, audit, now }), { prefix: API_PREFIX });
    await app.register(documentsRoutes({ auth, store, source: settlement.settlement, canSeeClient: clientScopeOf(store) }), { prefix: API_PREFIX });
    const workflows = new WorkflowService({
      db: store.db,
      env: {
        db: store.db,
        reference: store.reference,
        clearing: engineClearing(store.db, () => sequencer.engine),
        ledger: options.workflowLedger?.({ store, sequencer }) ?? new TradingLedger(store.db, trading),
        now,
      },
      publisher: new WorkflowPublisher(gateway, store.db),
      timerIntervalMs: options.workflowTimerIntervalMs,
    });
    await workflows.start();
    cleanups.push(() => workflows.stop());
    await app.register(workflowsRoutes({ auth, workflows }), { prefix: API_PREFIX });
    // Contracts and whitelist: their own routes (multipart, partners), their side effects on the one runner.
    const contracts = new ContractService(workflows.runner, workflows.env);
    const whitelist = new WhitelistService(workflows.runner, workflows.env);
    workflows.registerKind('contract', (action) => contracts.sideEffects(action));
    workflows.registerKind('whitelist', (action) => whitelist.sideEffects(action));
    await app.register(contractsRoutes({ auth, contracts }), { prefix: API_PREFIX });
    await app.register(whitelistRoutes({ auth, whitelist }), { prefix: API_PREFIX });
    await app.register(participantsRoutes({ auth, participants, audit }), { prefix: API_PREFIX });
    await app.register(qaRoutes({ auth, sessionsDir: options.qaSessionsDir }), { prefix: API_PREFIX });
    sequencer.onEvents((events, entry, _result, seq) => {
      marketData.onEvents(events, seq);
      notifications.onEvents(events, 'actor' in entry.command ? entry.command.actor : undefined);
      projector.onEvents(events, seq);
    });

    if (options.openMarketsOnStart ?? true) {
      const sessionDate = bucharestDate(now());
      for (const market of await store.reference.markets()) {
        if (sequencer.engine.getMarketPhase(market.id)?.phase === 'closed') {
          await sequencer.submit({ type: 'setPhase', marketId: market.id, assetId: null, phase: 'trading', sessionDate });
        }
      }
    }

    if (options.demoWorkflows) await loadDemoWorkflowsIfEmpty({ store, workflows, contracts, whitelist, readModelsSettled: () => projector.settled(), now });

    await app.listen({ port: options.port, host: options.host });
    const port = (app.server.address() as AddressInfo).port;
    return {
      url: `http://${options.host}:${port}/session/`,
      port,
      app,
      store,
      auth,
      gateway,
      sequencer,
      marketData,
      projector,
      trading,
      clearing,
      settlement,
      workflows,
      audit,
      participants,
      operator,
      async close() {
        // Writes what it can; a database that is away is not waited for (the restart re-projects from the watermark).
        await projector.settled().catch(() => {});
        await projector.stop();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** GET /health: degraded while the read models cannot be written or the journal refuses commands. */
function serverHealth(sequencer: Sequencer, projector: ReadModelProjector): ServerHealth {
  const readModels = projector.health;
  const journal = { status: sequencer.available ? ('ok' as const) : ('unavailable' as const), lastSeq: sequencer.lastJournalSeq };
  return { status: readModels.status === 'ok' && journal.status === 'ok' ? 'ok' : 'degraded', readModels, journal };
}

/** Which users act for which client codes, both ways. */
async function userClientIndex(store: Store): Promise<{ usersOfClient: Map<string, string[]>; clientsOfUser: Map<string, string[]> }> {
  const rows = await store.db.query<{ id: string; client_codes: string[] }>('select id, client_codes from users');
  const usersOfClient = new Map<string, string[]>();
  const clientsOfUser = new Map<string, string[]>();
  for (const row of rows) {
    clientsOfUser.set(row.id, row.client_codes);
    for (const code of row.client_codes) usersOfClient.set(code, [...(usersOfClient.get(code) ?? []), row.id]);
  }
  return { usersOfClient, clientsOfUser };
}
