// icons.js: the page's icons, drawn as SVG (a font's glyphs are not in
// every browser: a pause sign without an emoji font is an empty box).

const paths = {
  play: '<path d="M4 2.5v11l9-5.5z"/>',
  pause: '<path d="M4 2.5h3v11H4zM9 2.5h3v11H9z"/>',
  start: '<path d="M3 2.5h2v11H3zM13 2.5v11L6 8z"/>',
  end: '<path d="M11 2.5h2v11h-2zM3 2.5v11L10 8z"/>',
  next: '<path d="M3 3v10l6-5zM10 3h2v10h-2z"/>',
  prev: '<path d="M13 3v10L7 8zM4 3h2v10H4z"/>',
  search: '<path d="M6.5 2a4.5 4.5 0 1 0 2.6 8.2l3.4 3.4 1.1-1.1-3.4-3.4A4.5 4.5 0 0 0 6.5 2zm0 1.5a3 3 0 1 1 0 6 3 3 0 0 1 0-6z"/>',
  keys: '<path d="M1.5 4h13v8h-13zM3 5.5v1.5h1.5V5.5zm2.5 0v1.5H7V5.5zm2.5 0v1.5h1.5V5.5zm2.5 0v1.5H12V5.5zM4.5 9v1.5h7V9z" fill-rule="evenodd"/>',
  close: '<path d="M3.5 2.4 8 6.9l4.5-4.5 1.1 1.1L9.1 8l4.5 4.5-1.1 1.1L8 9.1l-4.5 4.5-1.1-1.1L6.9 8 2.4 3.5z"/>',
  error: '<path d="M8 1.5 15 14H1zM7.2 6v4h1.6V6zm0 5v1.6h1.6V11z" fill-rule="evenodd"/>',
};

// icon is the SVG of the icon named, 16 by 16 in the text's colour.
export function icon(name) {
  return `<svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="currentColor">${paths[name]}</svg>`;
}

// iconButtons puts each button's icon (data-icon) in it.
export function iconButtons() {
  for (const b of document.querySelectorAll('[data-icon]')) b.innerHTML = icon(b.dataset.icon) + (b.dataset.label ? `<span>${b.dataset.label}</span>` : '');
}
