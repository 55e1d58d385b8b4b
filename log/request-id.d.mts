export declare const REQUEST_ID_HEADER: "x-request-id";
export declare function requestIdOf(header: string | string[] | undefined): string;
