/** Fixed addresses of the two-origin (three with the attacker) browser test rig. */
export const E2E = {
  platformUrl: "http://localhost:18080",
  demoHostUrl: "http://127.0.0.1:18081",
  /** An allowed host origin serving fixture pages. */
  hostUrl: "http://127.0.0.1:18082",
  /** Not allowed: may not frame the embed, and its messages must be ignored. */
  attackerUrl: "http://127.0.0.1:18083",
  adminToken: "svc_e2e_admin_token_0123456789abcdefghij",
} as const;
