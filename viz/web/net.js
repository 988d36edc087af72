// net.js: fetching from elect viz's server.

// fetchAgain fetches url as fetch does, and tries again (three times in
// all, 200 and 400 ms apart) when the request fails on the way rather than
// at the server: the machine's network changing under the browser aborts
// the requests in flight (net::ERR_NETWORK_CHANGED) while the server is
// still there. An answer of the server, whatever its status, is returned.
export async function fetchAgain(url, init) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (attempt === 3 || err.name === 'AbortError') throw err;
      await new Promise((done) => setTimeout(done, 200 * attempt));
    }
  }
}
