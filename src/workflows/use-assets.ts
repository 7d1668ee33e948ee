import { useEffect, useMemo, useState } from 'react';
import type { AssetSpecification } from '../../protocol/reference.ts';
import { fetchAssets } from '../api/reference.ts';

/** The session's assets (cached reference data) by id: the decimals, steps, unit and currency of a workflow's prices and quantities. */
export function useAssets(): ReadonlyMap<string, AssetSpecification> {
  const [assets, setAssets] = useState<AssetSpecification[]>([]);
  useEffect(() => {
    let live = true;
    fetchAssets().then(
      (list) => live && setAssets(list),
      () => undefined, // a table without them still shows the codes; prices fall back to 2 decimals
    );
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => new Map(assets.map((asset) => [asset.id, asset])), [assets]);
}
