export declare const ROUTE_PATTERNS: readonly string[];
export declare function routeOf(pathname: string): string;
export declare function methodOf(method: string): string;
