// The dashboard's only script (no inline script: the CSP allows this file alone, and uPlot's).
// The copy buttons, shown only when script runs (the secret stays selectable text without it),
// a form sent once per page view (a second press of its button does nothing: the server would
// answer "already sent" and the first answer, a new key's secret, would be lost), and the usage
// chart, drawn from the JSON block beside it (the table holds the same numbers).
(function () {
  'use strict';

  for (const form of document.querySelectorAll('form[method="post"]')) {
    form.addEventListener('submit', (event) => {
      if (form.dataset.sent) event.preventDefault();
      form.dataset.sent = '1';
    });
  }
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) for (const form of document.querySelectorAll('form[data-sent]')) delete form.dataset.sent;
  });

  for (const button of document.querySelectorAll('button[data-copy]')) {
    const target = document.getElementById(button.dataset.copy);
    if (!target) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = target.textContent;
      let done = false;
      try {
        if (navigator.clipboard && window.isSecureContext) {
          await navigator.clipboard.writeText(text);
          done = true;
        }
      } catch (e) {
        done = false;
      }
      if (!done) {
        const range = document.createRange();
        range.selectNodeContents(target);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        done = document.execCommand && document.execCommand('copy');
      }
      const label = button.textContent;
      button.textContent = done ? 'Copied' : 'Selected: press Ctrl+C';
      setTimeout(() => (button.textContent = label), 2000);
    });
  }

  const box = document.getElementById('usage-chart');
  const source = box && document.getElementById(box.dataset.source);
  if (!box || !source || typeof uPlot === 'undefined') return;
  const t = JSON.parse(source.textContent);
  const x = t.days.map((d) => Date.parse(d + 'T00:00:00Z') / 1000);
  const palette = ['#8a3ffc', '#1192e8', '#005d5d', '#9f1853', '#fa4d56', '#570408', '#198038', '#002d9c'];
  const bars = uPlot.paths.bars({ size: [0.7, 40] });
  const series = [{}];
  const data = [x];
  // Bars stacked: each key's bar reaches the sum of the keys before it and its own, the refused
  // on top; drawn tallest first, so that each shorter one shows in front of the one it sits on.
  const layers = t.keys.map((k, i) => ({
    label: k.name,
    color: palette[i % palette.length],
    of: (d) => t.calls[d][i],
  }));
  layers.push({ label: 'refused (429)', color: '#c62828', of: (d) => t.refused[d] });
  let below = x.map(() => 0);
  const stacked = layers.map((l) => (below = below.map((b, d) => b + l.of(d))));
  for (let i = layers.length - 1; i >= 0; i--) {
    series.push({
      label: layers[i].label,
      stroke: layers[i].color,
      fill: layers[i].color + 'aa',
      paths: bars,
      scale: 'day',
    });
    data.push(stacked[i]);
  }
  // The month so far stops at the last day with figures (today), not flat into the future.
  series.push({ label: 'month so far', stroke: '#222', width: 2, scale: 'month' });
  data.push(t.cumulative.map((c, d) => (t.days[d] <= t.upTo ? c : null)));
  if (t.included !== null) {
    series.push({ label: 'included', stroke: '#198038', dash: [6, 4], scale: 'month' });
    data.push(x.map(() => t.included));
  }
  if (t.ceiling !== null) {
    series.push({ label: t.ceilingText, stroke: '#c62828', dash: [2, 4], scale: 'month' });
    data.push(x.map(() => t.ceiling));
  }
  const top = Math.max(1, ...t.cumulative, t.included || 0, t.ceiling || 0);
  const width = () => Math.max(280, box.parentElement.clientWidth);
  // Whole calls only on the axes (an empty month reads 0 and 1, not 0.2 steps).
  const incrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6];
  // An axis as wide as its longest tick label, so its title never sits on the ticks.
  const fit = (u, values, i, cycle) => {
    const axis = u.axes[i];
    if (cycle > 1) return axis._size;
    const longest = (values || []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
    u.ctx.font = axis.font[0];
    return Math.ceil(axis.ticks.size + axis.gap + u.ctx.measureText(longest).width / devicePixelRatio) + 4;
  };
  const opts = {
    width: width(),
    height: Math.max(220, Math.min(360, Math.round(width() * 0.5))),
    series,
    scales: {
      x: { time: true },
      day: { range: (u, min, max) => [0, Math.max(1, max)] },
      month: { range: () => [0, top * 1.05] },
    },
    axes: [
      {},
      { scale: 'day', label: 'calls a day', incrs, size: fit },
      { scale: 'month', side: 1, label: 'calls this month', grid: { show: false }, incrs, size: fit },
    ],
    legend: { live: false },
  };
  const plot = new uPlot(opts, data, box);
  window.addEventListener('resize', () => plot.setSize({ width: width(), height: opts.height }));
})();
