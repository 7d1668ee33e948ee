/**
 * The workflows' REST calls (protocol/workflows.ts `workflowRoutes`, under /session/api) through the
 * app's one HTTP client. Every answer is checked with the contract's schemas. Every POST that changes
 * something carries an Idempotency-Key: the caller makes one per user intent (`createIntentKeys`), so
 * a retry of the same intent (a lost answer, a second click) is not applied twice by the server.
 * A body the contract refuses is never sent: the call rejects (async) before any request.
 */
import type { z } from 'zod';
import {
  CONTRACT_MAX_BYTES,
  marginActivationRequestSchema,
  otcDealDraftSchema,
  otcSimulationSchema,
  transferRequestSchema,
  whitelistRelationListSchema,
  whitelistRequestSchema,
  workflowActionRequestSchema,
  workflowInstanceSchema,
  workflowListSchema,
  workflowRoutes,
  type OtcDealDraft,
  type OtcSimulation,
  type TransferRequest,
  type WhitelistRelation,
  type WhitelistRequestBody,
  type WorkflowAction,
  type WorkflowInstance,
  type WorkflowListQuery,
} from '../../protocol/workflows.ts';
import type { DownloadedFile } from '../../streams/api.ts';
import { authedDownload, authedRequest } from '../api/http.ts';

const IDEMPOTENCY_HEADER = 'Idempotency-Key';

function parser<S extends z.ZodType>(schema: S) {
  return (body: unknown): z.output<S> | null => schema.safeParse(body).data ?? null;
}
const parseInstance = parser(workflowInstanceSchema);

function queryString(query: WorkflowListQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function post<T>(path: string, body: unknown, parse: (body: unknown) => T | null, idempotencyKey: string | undefined, signal?: AbortSignal): Promise<T> {
  return authedRequest(path, parse, {
    method: 'POST',
    body,
    ...(idempotencyKey ? { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } } : {}),
    ...(signal ? { signal } : {}),
  });
}

/** GET /workflows: the instances the user may see (the administrator's queue with `awaiting: 'administrator'`). */
export function fetchWorkflows(query: WorkflowListQuery = {}, signal?: AbortSignal): Promise<WorkflowInstance[]> {
  return authedRequest(`${workflowRoutes.list}${queryString(query)}`, (body) => workflowListSchema.safeParse(body).data?.instances ?? null, signal ? { signal } : {});
}

/** GET /workflows/:instanceId: one instance as it is now (after a WORKFLOW_CONFLICT). */
export function fetchWorkflow(instanceId: string, signal?: AbortSignal): Promise<WorkflowInstance> {
  return authedRequest(workflowRoutes.instance(encodeURIComponent(instanceId)), parseInstance, signal ? { signal } : {});
}

/** POST /workflows/otc: registers a deal (status new). */
export async function createOtcDeal(draft: OtcDealDraft, idempotencyKey: string): Promise<WorkflowInstance> {
  return post(workflowRoutes.otc, otcDealDraftSchema.parse(draft), parseInstance, idempotencyKey);
}

/** POST /workflows/otc/simulation: what a draft would block for each side, and the price band. Changes nothing. */
export async function simulateOtcDeal(draft: OtcDealDraft, signal?: AbortSignal): Promise<OtcSimulation> {
  return post(workflowRoutes.otcSimulation, otcDealDraftSchema.parse(draft), parser(otcSimulationSchema), undefined, signal);
}

/** POST /workflows/transfer: asks to move a transaction (all of it, or `qty` of it) to the central counterparty. */
export async function requestTransfer(request: TransferRequest, idempotencyKey: string): Promise<WorkflowInstance> {
  return post(workflowRoutes.transfer, transferRequestSchema.parse(request), parseInstance, idempotencyKey);
}

/** POST /workflows/margin-activation: asks the administrator to count the transaction's margin exposure. */
export async function requestMarginActivation(transactionId: string, idempotencyKey: string): Promise<WorkflowInstance> {
  return post(workflowRoutes.marginActivation, marginActivationRequestSchema.parse({ transactionId }), parseInstance, idempotencyKey);
}

/** POST /workflows/whitelist: a request to a partner (ALLOW_TRADING or DENY_TRADING). */
export async function requestWhitelist(request: WhitelistRequestBody, idempotencyKey: string): Promise<WorkflowInstance> {
  return post(workflowRoutes.whitelist, whitelistRequestSchema.parse(request), parseInstance, idempotencyKey);
}

/** POST /workflows/contract, multipart: fields transactionId and file (the server checks the bytes, the size and the name). */
export function uploadContract(transactionId: string, file: File, idempotencyKey: string): Promise<WorkflowInstance> {
  const form = new FormData();
  form.set('transactionId', transactionId);
  form.set('file', file, file.name);
  return post(workflowRoutes.contract, form, parseInstance, idempotencyKey);
}

/** GET /workflows/:instanceId/contract.pdf: the contract's bytes (participants and the administrator only). */
export function downloadContract(instanceId: string): Promise<DownloadedFile> {
  return authedDownload(workflowRoutes.contractPdf(encodeURIComponent(instanceId)), 'application/pdf');
}

/** GET /whitelist/partners: the relations of the user's clients. */
export function fetchWhitelistPartners(signal?: AbortSignal): Promise<WhitelistRelation[]> {
  return authedRequest(workflowRoutes.whitelistPartners, (body) => whitelistRelationListSchema.safeParse(body).data?.relations ?? null, signal ? { signal } : {});
}

/** POST /workflows/:instanceId/actions with the version the user saw (a stale one is refused: WORKFLOW_CONFLICT). */
export async function sendWorkflowAction(
  instance: Pick<WorkflowInstance, 'instanceId' | 'version'>,
  action: WorkflowAction,
  reason: string | undefined,
  idempotencyKey: string,
): Promise<WorkflowInstance> {
  const body = workflowActionRequestSchema.parse({ action, version: instance.version, ...(reason !== undefined ? { reason } : {}) });
  return post(workflowRoutes.action(encodeURIComponent(instance.instanceId)), body, parseInstance, idempotencyKey);
}

/**
 * Idempotency keys per user intent: the same intent (same signature) gets the same key until another
 * intent is made, so a retry after a lost answer is recognised by the server; a new intent, a new key.
 */
export function createIntentKeys(newKey: () => string = () => globalThis.crypto.randomUUID()) {
  let last: { signature: string; key: string } | null = null;
  return {
    keyFor(signature: string): string {
      if (last?.signature !== signature) last = { signature, key: newKey() };
      return last.key;
    },
    /** After a success: the next request, even with the same signature, is a new intent. */
    done(): void {
      last = null;
    },
  };
}

/** What the browser can tell before the upload (the server stays the authority: it reads the magic bytes). */
export type ContractFileProblem = { code: 'CONTRACT_NOT_PDF'; params: { fileName: string } } | { code: 'CONTRACT_TOO_LARGE'; params: { limitBytes: number } } | { code: 'CONTRACT_INVALID_FILE_NAME'; params: { fileName: string } };

/** Only what is surely unsafe (a path, a control character, an empty or overlong name): the server has the final word on names. */
// eslint-disable-next-line no-control-regex
const UNSAFE_FILE_NAME = /[/\\\u0000-\u001f]|^\.|^$|^.{201,}$/;

export function checkContractFile(file: Pick<File, 'name' | 'size' | 'type'>): ContractFileProblem | null {
  if (UNSAFE_FILE_NAME.test(file.name)) return { code: 'CONTRACT_INVALID_FILE_NAME', params: { fileName: file.name } };
  if (!file.name.toLowerCase().endsWith('.pdf') || (file.type !== '' && file.type !== 'application/pdf')) return { code: 'CONTRACT_NOT_PDF', params: { fileName: file.name } };
  if (file.size > CONTRACT_MAX_BYTES) return { code: 'CONTRACT_TOO_LARGE', params: { limitBytes: CONTRACT_MAX_BYTES } };
  return null;
}
