export declare const STATIC_SECURITY_HEADERS: readonly (readonly [string, string])[];
export declare const NON_PAGE_CSP: string;
export declare const NON_PAGE_SOURCES: readonly string[];
export declare function pageCsp(o: { nonce: string; dev?: boolean; https?: boolean; frameAncestors?: readonly string[] }): string;
export declare function hstsHeader(publicBaseUrl: string | undefined): string | undefined;
