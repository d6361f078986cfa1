// Sample content the console tests upload and search for.
export const GUIDE_MD = [
  "# Deployment guide",
  "",
  "## Requirements",
  "",
  "The service needs Node 20 and, optionally, PostgreSQL 15 with pgvector.",
  "",
  "## Rollback",
  "",
  "To roll back a release, redeploy the previous container tag and run the migrations check.",
  "",
].join("\n");

export const PRICES_CSV = ["plan,seats,price_eur", "starter,5,49", "team,25,199", "enterprise,250,1490", ""].join("\n");
