import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

export declare function rawResponse(status: number, rawHeaders: string[], body: Buffer): Buffer;
export declare function rejectedRequestLine(
  rawPacket: Buffer | undefined,
  bytesParsed?: number,
): { method: string; target: string; accept: string | undefined } | undefined;
export declare function methodGuard(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
  secret: string,
): {
  request(req: IncomingMessage, res: ServerResponse): void;
  connect(req: IncomingMessage, socket: Duplex): void;
  clientError(err: Error, socket: Duplex): void;
};
