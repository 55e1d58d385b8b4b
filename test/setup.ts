Object.assign(process.env, {
  NODE_ENV: "test",
  DATA_DIR: process.env.DATA_DIR ?? ":memory:",
  PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? "http://pay.test",
});
