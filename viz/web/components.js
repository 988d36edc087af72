// components.js: the network's components at a moment: the nodes alive,
// joined by the links up between them, each with its size and the leaders
// its nodes follow.

// components lists state s's components, largest first: { size, leaders:
// [[leader, followers], ...] most followed first }.
export function components(model, s) {
  const n = model.n, norm = model.normCode, parent = new Int32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  const find = (v) => { while (parent[v] !== v) { parent[v] = parent[parent[v]]; v = parent[v]; } return v; };
  for (const k of s.links) {
    const a = Math.floor(k / n), b = k - a * n;
    if (!s.alive[a] || !s.alive[b]) continue;
    const ra = find(a), rb = find(b);
    if (ra !== rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
  }
  const byRoot = new Map();
  for (let v = 0; v < n; v++) {
    if (!s.alive[v]) continue;
    const r = find(v);
    let c = byRoot.get(r);
    if (!c) byRoot.set(r, c = { size: 0, follow: new Map() });
    c.size++;
    if (s.state[v] === norm && s.leader[v] >= 0) c.follow.set(s.leader[v], (c.follow.get(s.leader[v]) || 0) + 1);
  }
  const out = [];
  for (const c of byRoot.values()) out.push({ size: c.size, leaders: [...c.follow].sort((x, y) => y[1] - x[1] || x[0] - y[0]) });
  return out.sort((x, y) => y.size - x.size || (x.leaders[0]?.[0] ?? -1) - (y.leaders[0]?.[0] ?? -1));
}
