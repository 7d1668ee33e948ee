import { useEffect, useState } from 'react';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { fetchAssets, fetchMarkets, type MarketsAndRings } from '../../api/reference.ts';

/** Markets, rings and assets the user may see (the session's cached reference data); null while loading. */
export interface ReferenceData extends MarketsAndRings {
  assets: AssetSpecification[];
}

export function useReferenceData(): ReferenceData | null {
  const [data, setData] = useState<ReferenceData | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([fetchMarkets(), fetchAssets()])
      .then(([{ markets, rings }, assets]) => live && setData({ markets, rings, assets }))
      .catch(() => live && setData({ markets: [], rings: [], assets: [] }));
    return () => {
      live = false;
    };
  }, []);
  return data;
}
