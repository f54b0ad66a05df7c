/// <reference lib="dom" />
/**
 * The dashboard's one browser module (bundled by scripts/dashboard-assets.mjs): progressive enhancement of pages that
 * work without it. Copy buttons (a new secret, a webhook address), confirmations before destructive forms, the OAuth hand-off, and the Activity charts.
 */
import uPlot from 'uplot';

interface SeriesPoint {
  service: string;
  at: string;
  calls: number;
  errors: number;
  p95Ms: number;
}

interface ChartData {
  /** Bucket starts, ms since the epoch, oldest first. */
  buckets: number[];
  bucketMs: number;
  points: SeriesPoint[];
  services: string[];
}

function copyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.dataset.copy ?? '');
      const text = target instanceof HTMLInputElement ? target.value : (target?.textContent ?? '');
      const status = document.getElementById(`${button.dataset.copy}-status`);
      try {
        await navigator.clipboard.writeText(text);
        if (status) status.textContent = 'Copied to the clipboard.';
      } catch {
        if (target instanceof HTMLInputElement) target.select();
        if (status) status.textContent = 'Select the text and copy it (the browser refused clipboard access).';
      }
    });
  }
}

function confirmations(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm ?? 'Are you sure?')) event.preventDefault();
    });
  }
}

/** The OAuth hand-off page: go on to the provider at once (a link does the same without this module). */
function follow(): void {
  const link = document.querySelector<HTMLAnchorElement>('a[data-follow]');
  if (link) window.location.assign(link.href);
}

const PALETTE = ['#2563eb', '#d9480f', '#2b8a3e', '#9c36b5', '#c2255c', '#0b7285', '#5c940d', '#e67700'];

function charts(): void {
  const source = document.getElementById('activity-series');
  const holder = document.querySelector<HTMLElement>('[data-charts]');
  if (!source || !holder) return;
  const data = JSON.parse(source.textContent ?? '{}') as ChartData;
  const ink = getComputedStyle(document.body).color;
  const grid = getComputedStyle(document.body).getPropertyValue('--grid').trim() || 'rgba(128,128,128,0.25)';
  const xs = data.buckets.map((ms) => ms / 1000);
  const index = new Map(data.buckets.map((ms, i) => [ms, i]));
  const metrics: Array<{ key: 'calls' | 'errors' | 'p95Ms'; title: string; unit: string }> = [
    { key: 'calls', title: 'Calls', unit: '' },
    { key: 'errors', title: 'Errors', unit: '' },
    { key: 'p95Ms', title: 'p95 latency', unit: ' ms' },
  ];
  holder.replaceChildren();
  const made: uPlot[] = [];
  for (const metric of metrics) {
    const series = data.services.map((service) => {
      const values: Array<number | null> = xs.map(() => (metric.key === 'p95Ms' ? null : 0));
      for (const point of data.points) {
        if (point.service !== service) continue;
        const i = index.get(Date.parse(point.at));
        if (i !== undefined) values[i] = point[metric.key];
      }
      return values;
    });
    const figure = document.createElement('figure');
    figure.className = 'chart';
    figure.dataset.metric = metric.key;
    const caption = document.createElement('figcaption');
    caption.textContent = metric.title;
    figure.append(caption);
    holder.append(figure);
    const width = Math.max(240, Math.min(holder.clientWidth, 1100));
    const plot = new uPlot(
      {
        width,
        height: 180,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } },
          { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid }, values: (_u, ticks) => ticks.map((t) => `${t}${metric.unit}`) },
        ],
        series: [
          {},
          ...data.services.map((service, i) => ({
            label: service,
            stroke: PALETTE[i % PALETTE.length] as string,
            width: 2,
            spanGaps: metric.key === 'p95Ms',
            points: { show: true, size: 5 },
            value: (_u: uPlot, v: number | null) => (v === null ? '–' : `${v}${metric.unit}`),
          })),
        ],
        legend: { live: true },
      },
      [xs, ...series] as uPlot.AlignedData,
      figure,
    );
    made.push(plot);
  }
  holder.dataset.ready = 'true';
  let width = holder.clientWidth;
  new ResizeObserver(() => {
    if (holder.clientWidth === width) return;
    width = holder.clientWidth;
    for (const plot of made) plot.setSize({ width: Math.max(240, Math.min(width, 1100)), height: 180 });
  }).observe(holder);
}

copyButtons();
confirmations();
follow();
charts();
