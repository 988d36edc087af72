// fetcher.js: a worker that fetches what the server compressed with gzip
// and undoes it, off the page's thread. Undoing a chunk (2–3 MB of
// events) takes 10–15 ms: on the page's own thread, while playing, that
// was a frame missed for every chunk. Asked { id, url }, it answers
// { id, buf } (the bytes, handed over, not copied) or { id, error }. A
// module worker (data.js starts it so).

import { fetchAgain } from './net.js';

self.onmessage = async ({ data: { id, url } }) => {
  try {
    const r = await fetchAgain(url);
    if (!r.ok) throw new Error(`${url}: ${await r.text()}`);
    const buf = await new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
    self.postMessage({ id, buf }, [buf]);
  } catch (err) {
    self.postMessage({ id, error: String(err.message || err) });
  }
};
