export type DatabaseStatus = "provisioning" | "ready" | "failed" | "deleting";

export type DatabaseKind = "context" | "graph";
