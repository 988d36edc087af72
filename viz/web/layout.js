// layout.js: where the network's nodes stand, before the view fits and
// zooms it: the trace's own layout, or one the page makes.

// place lays the nodes out: the layout's positions, or a circle for small
// networks, a grid for large ones, relaxed along the initial links.
export async function place(model, layout) {
  const n = model.n;
  if (layout) {
    return { x: layout.x, y: layout.y, w: layout.width || 1, h: layout.height || 1, tracks: layout.tracks };
  }
  const x = new Float64Array(n), y = new Float64Array(n);
  const side = Math.ceil(Math.sqrt(n));
  for (let v = 0; v < n; v++) {
    if (n <= 64) {
      const a = 2 * Math.PI * v / n;
      x[v] = 0.5 + 0.45 * Math.cos(a); y[v] = 0.5 + 0.45 * Math.sin(a);
    } else {
      x[v] = (v % side + 0.5) / side; y[v] = (Math.floor(v / side) + 0.5) / side;
    }
  }
  if (n <= 2000) relax(model, (await model.at(await model.count(0))).links, x, y, n <= 200 ? 300 : 60);
  return { x, y, w: 1, h: 1 };
}

// relax pulls linked nodes (up, a state's links) together and pushes all
// apart (a few rounds of a spring layout over the links at time 0).
function relax(model, up, x, y, rounds) {
  const links = [...up].map((k) => model.ends(k));
  const n = model.n, k = 1 / Math.sqrt(n);
  for (let round = 0; round < rounds; round++) {
    const dx = new Float64Array(n), dy = new Float64Array(n);
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const ex = x[a] - x[b], ey = y[a] - y[b];
        const d2 = ex * ex + ey * ey + 1e-9;
        const f = k * k / d2;
        dx[a] += ex * f; dy[a] += ey * f; dx[b] -= ex * f; dy[b] -= ey * f;
      }
    }
    for (const [a, b] of links) {
      const ex = x[a] - x[b], ey = y[a] - y[b];
      const d = Math.sqrt(ex * ex + ey * ey) + 1e-9;
      const f = d / k;
      dx[a] -= ex * f; dy[a] -= ey * f; dx[b] += ex * f; dy[b] += ey * f;
    }
    const step = 0.02 * (1 - round / rounds);
    for (let v = 0; v < n; v++) {
      const d = Math.sqrt(dx[v] * dx[v] + dy[v] * dy[v]) + 1e-9;
      x[v] = Math.min(0.98, Math.max(0.02, x[v] + dx[v] / d * Math.min(d, step)));
      y[v] = Math.min(0.98, Math.max(0.02, y[v] + dy[v] / d * Math.min(d, step)));
    }
  }
}
