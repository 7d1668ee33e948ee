import { z } from 'zod';
import { workspaceTypes } from './enums.ts';

/** A trader's personal workspace (SPEC §3): a named set of assets and rings of one market, of type gas, energy or gas-bg. */
export const workspaceSchema = z.strictObject({
  id: z.string(),
  name: z.string().trim().min(1).max(80),
  type: z.enum(workspaceTypes),
  marketId: z.string(),
  assetIds: z.array(z.string()).max(200),
  ringIds: z.array(z.string()).max(50),
});
export type Workspace = z.infer<typeof workspaceSchema>;

/**
 * The assets a workspace shows, in the market's order: those picked one by one plus every asset of
 * a picked ring. A ring follows its assets, so an asset later added to a picked ring shows too.
 */
export function workspaceAssets<A extends { id: string; marketId: string; ringId: string | null }>(
  workspace: Pick<Workspace, 'marketId' | 'assetIds' | 'ringIds'>,
  assets: readonly A[],
): A[] {
  const picked = new Set(workspace.assetIds);
  const rings = new Set(workspace.ringIds);
  return assets.filter((asset) => asset.marketId === workspace.marketId && (picked.has(asset.id) || (asset.ringId !== null && rings.has(asset.ringId))));
}

export const workspaceInputSchema = workspaceSchema.omit({ id: true });
export type WorkspaceInput = z.infer<typeof workspaceInputSchema>;
