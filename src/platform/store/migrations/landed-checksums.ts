/**
 * The SHA-256 of every landed migration's statements (see checksum.ts), pinned when it landed.
 * test/store/migration-pins.test.ts fails when a pinned migration changes or a migration has no
 * pin. A landed migration is never edited: add a new one, then add its line here.
 */
export const LANDED_CHECKSUMS: Readonly<Record<number, string>> = {
  1: "045361194a60060586639fce393d3fa6819ce7515f265955526bcb25432f7951",
  2: "dbab2bbf3f96bfccff122b743cbcca88a05a9e064e06a1c4b76555cee2c1147e",
  3: "4c549e53e353195a922d7e56987bafc74599fc9546a963711cb9121f1c8d69a5",
  4: "a516c20081f1b8bac97b0951e43d675098974c7e333ad1fc5c1fb5d57f1bcb6b",
  5: "dc98745b7984a07c90b291c6fc1b51b1b03fa236127650dea97492fe66dc0671",
  6: "1ffdfd8b41b8f92c9175efb684b263ec44bcbe309177f6c1eda292237fdff0e7",
  7: "6bbce643cc1698d9310d2a07414328a700b7f68ce6dea39903b788a746156c9c",
  8: "a1ee756c65b8181d7ebd6c6256068748b19223059c685eaed7d11cd4d252e67e",
  9: "21fc02797e8e1b7b17637ae718f6c2e8679852fbd9b249ed0fa019e8d31288d3",
  10: "61d685c4d686184b7f79558be339fe4263b3f4cd068493e09bd97dcd140b2895",
  11: "ceb53344cfb001df3e338b3d1c68665b753aad0d5443a9049d4c7d91d3c66544",
  12: "308f483a78d3a783c06d3a6d03687cd89d225b1af80f09761170c93ae6a673f8",
  13: "6b2690d10aa20678f5fc76010157d17853873d5918f038a285400c38a2519ca1",
  14: "31454d9d595e53bb835312895ec345cbb1b02f373dfb102fd745a7320715dbbb",
  15: "d45f124bf4ea5de6ab6b34e3bd935280e1e8f67fca9275b70d44cd5dcb428526",
};
