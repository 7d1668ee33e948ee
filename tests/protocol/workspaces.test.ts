import { describe, expect, it } from 'vitest';
import { workspaceAssets, workspaceInputSchema } from '../../protocol/workspaces.ts';

const assets = [
  { id: 'A1', marketId: 'M1', ringId: 'R1' },
  { id: 'A2', marketId: 'M1', ringId: 'R2' },
  { id: 'A3', marketId: 'M1', ringId: 'R1' },
  { id: 'A4', marketId: 'M1', ringId: null },
  { id: 'B1', marketId: 'M2', ringId: 'R1' },
];

describe('workspaceAssets', () => {
  it('shows the picked assets in the market order', () => {
    expect(workspaceAssets({ marketId: 'M1', assetIds: ['A4', 'A2'], ringIds: [] }, assets).map((a) => a.id)).toEqual(['A2', 'A4']);
  });

  it('adds every asset of a picked ring, once, and only of the workspace market', () => {
    expect(workspaceAssets({ marketId: 'M1', assetIds: ['A1', 'A4'], ringIds: ['R1'] }, assets).map((a) => a.id)).toEqual(['A1', 'A3', 'A4']);
  });

  it('follows the ring: an asset added to it later shows without editing the workspace', () => {
    const later = [...assets, { id: 'A5', marketId: 'M1', ringId: 'R2' }];
    expect(workspaceAssets({ marketId: 'M1', assetIds: [], ringIds: ['R2'] }, later).map((a) => a.id)).toEqual(['A2', 'A5']);
  });

  it('shows nothing for a workspace with neither assets nor rings', () => {
    expect(workspaceAssets({ marketId: 'M1', assetIds: [], ringIds: [] }, assets)).toEqual([]);
  });
});

describe('workspaceInputSchema', () => {
  it('refuses a blank name and unknown fields', () => {
    expect(workspaceInputSchema.safeParse({ name: '  ', type: 'gas', marketId: 'M1', assetIds: [], ringIds: [] }).success).toBe(false);
    expect(workspaceInputSchema.safeParse({ name: 'W', type: 'gas', marketId: 'M1', assetIds: [], ringIds: [], extra: 1 }).success).toBe(false);
    expect(workspaceInputSchema.safeParse({ name: 'W', type: 'gas', marketId: 'M1', assetIds: [], ringIds: [] }).success).toBe(true);
  });
});
