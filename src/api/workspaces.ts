import { z } from 'zod';
import { workspaceSchema, type Workspace, type WorkspaceInput } from '../../protocol/workspaces.ts';
import { authedRequest, noBody } from './http.ts';

const listSchema = z.strictObject({ workspaces: z.array(workspaceSchema) });
const oneSchema = z.strictObject({ workspace: workspaceSchema });

/** GET /workspaces: the user's personal workspaces. */
export function fetchWorkspaces(): Promise<Workspace[]> {
  return authedRequest('/workspaces', (body) => listSchema.safeParse(body).data?.workspaces ?? null);
}

export function createWorkspace(input: WorkspaceInput): Promise<Workspace> {
  return authedRequest('/workspaces', (body) => oneSchema.safeParse(body).data?.workspace ?? null, { method: 'POST', body: input });
}

export function updateWorkspace(workspace: Workspace): Promise<Workspace> {
  const { id, ...input } = workspace;
  return authedRequest(`/workspaces/${encodeURIComponent(id)}`, (body) => oneSchema.safeParse(body).data?.workspace ?? null, { method: 'PUT', body: input });
}

export function deleteWorkspace(id: string): Promise<true> {
  return authedRequest(`/workspaces/${encodeURIComponent(id)}`, noBody, { method: 'DELETE' });
}
