export declare const ROUTE_METHODS: readonly ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
export declare const API_PREFIXES: readonly string[];
export declare const RELAY_HEADER: "x-relayed-method";
export declare const RELAY_SECRET_ENV: "METHOD_RELAY_SECRET";
export declare function isApiTarget(target: string): boolean;
