// common.js: what the page's parts share: $ for an element of the page,
// counts written short, and the colours of leaders and message types.

export const $ = (id) => document.getElementById(id);

// compact writes a count short: 950, 12k, 3.4M.
// short writes a count exactly up to 100,000, then compact.
export function short(v) { return v >= 1e5 ? compact(v) : String(v); }

export function compact(v) {
  if (v >= 1e6) return `${(v / 1e6).toFixed(v >= 1e7 ? 0 : 1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k`;
  return `${v}`;
}

// palette gives each leader and each message type a colour of its own.
function hue(k) { return (k * 137.508) % 360; }
const leaderColours = [];
export function leaderColour(l) { return l < 0 ? '#9a9a9a' : (leaderColours[l] ||= `hsl(${hue(l)}, 65%, 50%)`); }
const typeColours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
export function typeColour(k) { return typeColours[k % typeColours.length]; }
