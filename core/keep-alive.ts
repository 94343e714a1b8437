/**
 * How long a client keeps an idle connection when the server announces no `Keep-Alive: timeout=N`
 * (with one, the announced time less a margin). Below the 5 s idle time-out many servers close at
 * without saying so (uvicorn's default): a request sent on a connection the server is closing
 * meets a reset the server never answered, the more likely the longer the round trip. undici's
 * own default. Used by the suite's client (core/client.ts) and the load generator's connections.
 */
export const IDLE_KEEP_ALIVE_MS = 4_000;
