export * from "./businesses";
export * from "./api-keys";
export * from "./customers";
export * from "./payments";
export * from "./charges";
export * from "./webhooks";
export * from "./chain-cursors";
export * from "./rates";
