/**
 * Reads the cloud's SSE stream (`/sync/events`) until it ends or `controller` aborts: `poke()` for
 * each `poke` or `hello` event, then `ended(live)` once, where `live` says the stream said hello or
 * poked at least once. Never throws: polling goes on whatever happens to the stream.
 */
export function readPokeStream(
  fetchFn: typeof fetch,
  url: string,
  token: string,
  controller: AbortController,
  handlers: { poke(): void; ended(live: boolean): void },
): void {
  let live = false;
  void (async () => {
    try {
      const res = await fetchFn(url, {
        headers: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      if (!res.ok || !res.body) throw new Error(`events ${res.status}`);
      const decoder = new TextDecoder();
      let tail = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        // `hello` comes once the cloud's subscription is live: pull then too, so a change made
        // between the last pull and the subscription is not left to the poll timer. The end of the
        // previous chunk is kept: an event line split across two chunks still counts.
        const text = tail + decoder.decode(chunk, { stream: true });
        if (/event: (poke|hello)/.test(text)) {
          live = true;
          handlers.poke();
          tail = ''; // counted: not again with the next chunk
        } else tail = text.slice(-16);
      }
    } catch {
      // Polling goes on; the loop opens the stream again when online.
    } finally {
      handlers.ended(live);
    }
  })();
}
