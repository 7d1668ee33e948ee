/**
 * The daily settlement price history of one asset, drawn by uPlot (canvas: fast on years of days,
 * no dependencies, no eval; it sets inline styles only, which the CSP allows). Imported when a chart
 * is first drawn (uPlot reads the screen's pixel ratio as it loads), in its own chunk.
 */
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { toDisplayNumber } from '../../protocol/decimal.ts';
import { formatCalendarDate } from '../i18n/format.ts';

export interface PricePoint {
  /** Session date, YYYY-MM-DD. */
  date: string;
  /** The price in force that day, in the asset's minor units. */
  price: number | null;
}

const HEIGHT = 240;

function cssColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

/** Seconds of a session date's UTC midnight: uPlot's time axis, drawn in UTC so a date stays that date. */
function dateSeconds(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

export function SettlementPriceChart({ points, priceDecimals, label }: { points: readonly PricePoint[]; priceDecimals: number; label: string }) {
  const intl = useIntl();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const sorted = [...points].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const data: uPlot.AlignedData = [sorted.map((point) => dateSeconds(point.date)), sorted.map((point) => (point.price === null ? null : toDisplayNumber(point.price, priceDecimals)))];
    const number = (value: number) => intl.formatNumber(value, { minimumFractionDigits: priceDecimals, maximumFractionDigits: priceDecimals });
    const day = (seconds: number) => formatCalendarDate(intl, new Date(seconds * 1000).toISOString().slice(0, 10));
    const tick = (seconds: number) => intl.formatDate(new Date(seconds * 1000), { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const axisColor = cssColor('--color-text-muted', '#5b6472');
    const gridColor = cssColor('--color-border', '#d9dee5');
    const options = (UPlot: typeof uPlot): uPlot.Options => ({
      width: Math.max(320, element.clientWidth || 640),
      height: HEIGHT,
      tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), 'UTC'),
      scales: { x: { time: true } },
      legend: { show: true },
      series: [
        { label: intl.formatMessage({ id: 'clearing.chart.date' }), value: (_chart, seconds) => (seconds === null ? '—' : day(seconds)) },
        {
          label,
          stroke: cssColor('--color-primary', '#1f5fbf'),
          width: 2,
          points: { show: sorted.length <= 60 },
          spanGaps: true,
          value: (_chart, value) => (value === null ? '—' : number(value)),
        },
      ],
      axes: [
        // Ticks at least 90 px apart, labelled '20 oct.' / '20 Oct': whole dates sit in the legend.
        { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor }, space: 90, values: (_chart, splits) => splits.map(tick) },
        { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor }, size: 70, values: (_chart, splits) => splits.map(number) },
      ],
    });
    let chart: uPlot | null = null;
    let cancelled = false;
    // The chart follows its box's width (the account panel narrows with the window).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart?.setSize({ width: Math.max(320, element.clientWidth), height: HEIGHT }));
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      chart = new UPlot(options(UPlot), data, element);
      observer?.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [points, priceDecimals, label, intl]);
  return <div ref={box} className="settlement-price-chart" role="img" aria-label={intl.formatMessage({ id: 'clearing.chart.label' }, { asset: label })} />;
}
