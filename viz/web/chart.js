// chart.js: the chart under the counters (#chart): messages sent and nodes
// without a leader over the run, from the index's samples, the moments
// with no leader at all shaded, and a line where the view is.

import { $, compact } from './common.js';

const SENT = '#7f7f7f', LEADERLESS = '#000';

export class Chart {
  constructor(model) {
    this.model = model;
  }

  // draw draws the index's samples: messages sent (to their most) and
  // nodes without a leader (of all), the moments with no leader at all
  // shaded, and where the view is (ms).
  draw(ms) {
    const c = $('chart'), g = c.getContext('2d'), m = this.model, info = m.info;
    const w = c.width, h = c.height;
    const L = 34, R = w - 6, T = 6, B = h - 16, end = m.end;
    const X = (ms) => L + (end > 0 ? (R - L) * ms / end : 0);
    // The curves change only with the index: drawn once for it, then
    // copied each frame under the cursor.
    const x = Math.round(X(ms)) + 0.5;
    if (this.charted !== info || this.chartPicture.width !== w || this.chartPicture.height !== h) {
      this.charted = info;
      this.chartPicture = this.picture(w, h, L, R, T, B, X);
    } else if (x === this.cursorX) return; // the same pixel: the picture stands
    this.cursorX = x;
    g.clearRect(0, 0, w, h);
    g.drawImage(this.chartPicture, 0, 0);
    g.strokeStyle = '#222'; g.beginPath(); g.moveTo(x, T); g.lineTo(x, B); g.stroke();
  }

  // picture draws the curves and axes on a canvas of their own.
  picture(w, h, L, R, T, B, X) {
    const m = this.model, info = m.info, step = info.sample_step_ms, end = m.end;
    const c = document.createElement('canvas');
    c.width = w; c.height = h;
    const g = c.getContext('2d');
    const smp = info.samples.map((p, k) => ({ ms: k * step, sent: p[0], leaderless: p[1], alive: p[2] }));
    smp.push({ ms: end, sent: info.now[0], leaderless: info.now[1], alive: info.now[2] });
    const ph = B - T;
    let maxSent = 1;
    for (const p of smp) maxSent = Math.max(maxSent, p.sent);
    const maxLess = Math.max(1, m.n);
    // Intervals with no leader at all (every live node leaderless), shaded.
    g.fillStyle = 'rgba(213, 94, 0, 0.15)';
    for (let k = 0; k + 1 < smp.length; k++) {
      if (smp[k].leaderless > 0 && smp[k].leaderless >= smp[k].alive) g.fillRect(X(smp[k].ms), T, Math.max(1, X(smp[k + 1].ms) - X(smp[k].ms)), ph);
    }
    const line = (f, colour, dash) => {
      g.beginPath(); g.strokeStyle = colour; g.lineWidth = 1.5; g.setLineDash(dash);
      smp.forEach((p, k) => { const x = X(p.ms), y = B - ph * f(p); k ? g.lineTo(x, y) : g.moveTo(x, y); });
      g.stroke(); g.setLineDash([]); g.lineWidth = 1;
    };
    // In greys, apart from the leaders' and the messages' colours.
    line((p) => p.sent / maxSent, SENT, []);
    line((p) => p.leaderless / maxLess, LEADERLESS, [4, 2]);
    // Axes: time in seconds below; messages (grey, left) scaled to their
    // most, nodes without a leader (black, dashed) to all nodes.
    g.strokeStyle = '#888'; g.beginPath(); g.moveTo(L, T); g.lineTo(L, B); g.lineTo(R, B); g.stroke();
    g.fillStyle = '#555'; g.font = '9px system-ui, sans-serif';
    g.textAlign = 'left'; g.fillText('0', L - 2, h - 4);
    g.textAlign = 'right'; g.fillText(`${(end / 1000).toFixed(end < 10000 ? 1 : 0)} s`, R, h - 4);
    g.textAlign = 'center'; g.fillText('time', (L + R) / 2, h - 4);
    g.textAlign = 'right';
    g.fillStyle = SENT; g.fillText(compact(maxSent), L - 3, T + 8);
    g.fillStyle = LEADERLESS; g.fillText(`${compact(maxLess)} n`, L - 3, T + 18);
    g.fillStyle = '#555'; g.fillText('0', L - 3, B);
    return c;
  }

}
