/**
 * The production server's answer to requests Next.js cannot take: any method outside
 * the seven it dispatches (lib/http/methods.mjs). Next.js builds a fetch `Request` for every
 * request, and fetch refuses TRACE, so without this a TRACE anywhere is a bare 500 with a stack
 * trace in the log; PROPFIND and the like get an empty 400; CONNECT and tokens Node's parser does
 * not know (FOO, lowercase get) never become requests, and are dropped or get Node's bare 400.
 *
 * Under the API prefixes the route modules still give the answer, so that one place knows each
 * route's methods (their `otherMethods([...])`) and one place builds ProblemDetails
 * (lib/http/respond.ts): the request goes on as OPTIONS carrying `x-relayed-method: <secret>
 * <METHOD>`, which the route's OPTIONS handler answers with its 405 (and `Allow`) or the unknown
 * path's 404. CONNECT and unparseable request lines have no request object to send on, so they are
 * asked the same over a loopback connection and the answer is written to their socket. Elsewhere
 * (pages, the checkout's polling route, Inngest) such methods get 501 Not Implemented.
 */
import http from "node:http";
import { RELAY_HEADER, ROUTE_METHODS, isApiTarget } from "../lib/http/methods.mjs";
import { log } from "../log/logger.mjs";

const DISPATCHED = new Set(ROUTE_METHODS);
/** A request line as RFC 9112 has it, of a method Node's parser rejects: token SP target SP version. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([\x21-\x7e]+) HTTP\/1\.[01]\r?$/;
/** Headers of the relayed answer that describe its own connection, not the message. */
const CONNECTION_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);
/** Node's own answers to a request it cannot parse (its default `clientError` handling). */
const NODE_CLIENT_ERRORS = { HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 };

const NOT_IMPLEMENTED = "Not Implemented: this server does not support that method here.\n";

/** A whole response as bytes for a socket the HTTP server no longer writes to; it closes the connection. */
export function rawResponse(status, rawHeaders, body) {
  let head = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\n`;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (!CONNECTION_HEADERS.has(rawHeaders[i].toLowerCase())) head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
  }
  head += `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

const NOT_IMPLEMENTED_RAW = rawResponse(501, ["Content-Type", "text/plain; charset=utf-8"], Buffer.from(NOT_IMPLEMENTED));

/*
 * Responses in flight per socket, counted on the socket itself: a map from sockets to their last
 * response would keep each finished request reachable until the connection's next one, past the
 * young-generation collections that should free it (docs/performance.md).
 */
const IN_FLIGHT = Symbol("responses in flight");
const IDLE = Symbol("waiting for no response in flight");

function track(socket, res) {
  socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1;
  socket[IDLE] ??= [];
  res.on("close", untrack);
}

/** A response's `close` listener (shared, so nothing is allocated per request for it). */
function untrack() {
  const socket = this.req.socket;
  if (--socket[IN_FLIGHT] > 0) return;
  for (const resolve of socket[IDLE].splice(0)) resolve();
}

/**
 * The method and target of the request whose method Node's parser rejected, from the bytes it was
 * given (`err.rawPacket`, which may hold earlier pipelined requests before `err.bytesParsed`).
 */
export function rejectedRequestLine(rawPacket, bytesParsed = 0) {
  if (!rawPacket) return undefined;
  const text = rawPacket.toString("latin1");
  const start = text.lastIndexOf("\n", Math.max(0, bytesParsed - 1)) + 1;
  const lineEnd = text.indexOf("\n", start);
  if (lineEnd < 0) return undefined;
  const m = REQUEST_LINE.exec(text.slice(start, lineEnd));
  if (!m) return undefined;
  const headEnd = text.indexOf("\r\n\r\n", lineEnd);
  const head = text.slice(lineEnd + 1, headEnd < 0 ? undefined : headEnd);
  const accept = /^accept:[ \t]*(.*?)[ \t]*\r?$/im.exec(head)?.[1];
  return { method: m[1], target: m[2], accept };
}

/**
 * Wraps `handle` (Next.js's request handler) with answers for the methods it cannot take.
 * `secret` is the per-process value lib/http/route.ts checks in `x-relayed-method`.
 */
export function methodGuard(handle, secret) {
  /** Sockets this guard has taken over: Node may report more errors on them, already answered. */
  const taken = new WeakSet();

  function dispatch(req, res) {
    Promise.resolve(handle(req, res)).catch((err) => {
      // What `next start` does with an error its handler lets through.
      log.error({ err, path: req.url.split("?", 1)[0] }, "the request handler failed");
      if (!res.headersSent) res.statusCode = 500;
      res.end(res.headersSent ? undefined : "Internal Server Error");
    });
  }

  /** Resolves once no response is in flight on `socket` (a raw answer must not cut into one). */
  function idle(socket) {
    if (!socket[IN_FLIGHT]) return Promise.resolve();
    return new Promise((resolve) => socket[IDLE].push(resolve));
  }

  /** Asks the API over a loopback connection what it answers `method` on `target`. */
  function ask(socket, method, target, accept) {
    return new Promise((resolve) => {
      const headers = { [RELAY_HEADER]: `${secret} ${method}`, ...(accept ? { accept } : {}) };
      let out;
      try {
        out = http.request({ host: socket.localAddress, port: socket.localPort, method: "OPTIONS", path: target, headers, agent: false });
      } catch {
        return resolve(undefined); // a target http.request refuses (e.g. characters over U+00FF)
      }
      out.on("response", (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.rawHeaders, body: Buffer.concat(chunks) }));
        res.on("error", () => resolve(undefined));
      });
      out.on("error", () => resolve(undefined));
      out.end();
    });
  }

  /**
   * Answers on a socket the HTTP server has let go of, once no response is in flight on it: `fixed`,
   * else the API's answer for `method` on an API `target`, else 501. Then closes the connection.
   */
  async function answerSocket(socket, { method, target, accept, fixed }) {
    taken.add(socket);
    socket.on("error", () => {}); // a client gone meanwhile: nothing to answer
    // Read nothing more until answered: the end of a client's sending would make Node close the
    // connection before the answer is written.
    socket.pause();
    await idle(socket);
    const answer = !fixed && isApiTarget(target) ? await ask(socket, method, target, accept) : undefined;
    if (!socket.writable) return socket.destroy();
    socket.end(fixed ?? (answer ? rawResponse(answer.status, answer.headers, answer.body) : NOT_IMPLEMENTED_RAW));
    socket.resume(); // read on to the client's end of the connection, so that it closes
  }

  return {
    request(req, res) {
      track(req.socket, res);
      if (DISPATCHED.has(req.method)) return dispatch(req, res);
      if (!isApiTarget(req.url)) {
        res.writeHead(501, { "content-type": "text/plain; charset=utf-8" }).end(NOT_IMPLEMENTED);
        return;
      }
      req.headers[RELAY_HEADER] = `${secret} ${req.method}`;
      req.method = "OPTIONS";
      dispatch(req, res);
    },

    /** CONNECT: Node hands over the socket (without a listener it closes it unanswered). */
    connect(req, socket) {
      void answerSocket(socket, { method: req.method, target: req.url, accept: req.headers.accept });
    },

    /**
     * A request Node could not parse: an unknown method is answered as above; anything else gets
     * Node's own answer, though only after the responses under way (Node would cut them off).
     */
    clientError(err, socket) {
      if (taken.has(socket)) return;
      const line = err.code === "HPE_INVALID_METHOD" ? rejectedRequestLine(err.rawPacket, err.bytesParsed) : undefined;
      if (line) return void answerSocket(socket, line);
      const status = NODE_CLIENT_ERRORS[err.code] ?? 400;
      void answerSocket(socket, { fixed: `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n\r\n` });
    },
  };
}
