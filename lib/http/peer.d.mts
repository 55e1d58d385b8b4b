import type { IncomingMessage } from "node:http";

export declare const PEER_HEADER: "x-peer-address";
export declare const PEER_SECRET_ENV: "PEER_ADDRESS_SECRET";
export declare function stampPeer(req: IncomingMessage, secret: string): void;
