/**
 * The V8 flags `npm start` runs the service with (package.json's `start` script; a unit test keeps
 * the two the same), for the benchmarks that start the service themselves. A young generation of
 * 32 MB semi-spaces instead of 16: a LoCoMo query allocates about 2 MB, so the default one was
 * scavenged every 6-8 queries. Measured over 1,535 LoCoMo queries, three rounds: 198 scavenges and
 * 465-603 ms of them against 104-105 and 285-349 ms; 64 MB and 128 MB halved the count again but
 * each scavenge took longer (4.5-9 ms against 2.8-3.3 ms), for no less in total.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=32"];
