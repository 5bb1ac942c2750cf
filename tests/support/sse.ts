/** A server-sent-event reader over a real HTTP connection, for the realtime tests. */
import http from "node:http";
import https from "node:https";

export interface SseEvent {
  id?: string;
  event: string;
  data: any;
}

/** `tls.ca`: the certificate an https `base` is trusted by (the proxy test's self-signed one). */
export function openStream(
  base: string,
  token: string,
  headers: Record<string, string> = {},
  query = "",
  tls: { ca?: string | Buffer } = {},
) {
  const events: SseEvent[] = [];
  let raw = "";
  let all = "";
  let ended = false;
  let status = 0;
  let contentType = "";
  const options = { headers: { accept: "text/event-stream", authorization: `Bearer ${token}`, ...headers } };
  const url = `${base}/api/v1/realtime${query}`;
  const request = base.startsWith("https:") ? https.get(url, { ...options, ca: tls.ca }) : http.get(url, options);
  const opened = new Promise<void>((resolve, reject) => {
    request.on("response", (response) => {
      status = response.statusCode ?? 0;
      contentType = String(response.headers["content-type"] ?? "");
      response.setEncoding("utf8");
      response.on("end", () => {
        ended = true;
      });
      response.on("close", () => {
        ended = true;
      });
      response.on("data", (chunk: string) => {
        raw += chunk;
        all += chunk;
        let cut = raw.indexOf("\n\n");
        while (cut >= 0) {
          const block = raw.slice(0, cut);
          raw = raw.slice(cut + 2);
          const event: SseEvent = { event: "message", data: null };
          let data = "";
          let meaningful = false;
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("event: ")) {
              event.event = line.slice(7);
              meaningful = true;
            } else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (meaningful) {
            event.data = data ? JSON.parse(data) : null;
            events.push(event);
          }
          cut = raw.indexOf("\n\n");
        }
      });
      response.on("error", () => {});
      resolve();
    });
    request.on("error", reject);
  });
  return {
    events,
    opened,
    get status() {
      return status;
    },
    get contentType() {
      return contentType;
    },
    get ended() {
      return ended;
    },
    /** Waits until the raw stream (comments included) matches. */
    async waitForRaw(pattern: RegExp, timeout = 15_000) {
      const started = Date.now();
      while (!pattern.test(all)) {
        if (Date.now() - started > timeout) throw new Error(`el flujo no contiene ${pattern}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    /** Waits until the server ends the stream. */
    async waitForEnd(timeout = 15_000) {
      const started = Date.now();
      while (!ended) {
        if (Date.now() - started > timeout) throw new Error("el servidor no cerró el flujo");
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    /** Waits (polling) until an event matches; generous timeout for a loaded machine. */
    async waitFor(match: (e: SseEvent) => boolean, timeout = 15_000): Promise<SseEvent> {
      const started = Date.now();
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() - started > timeout)
          throw new Error(`no llegó el evento esperado; recibidos: ${JSON.stringify(events.map((e) => [e.event, e.id]))}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close() {
      request.destroy();
    },
  };
}
