/** Addresses of a two-origin (three with the attacker) browser test rig whose platform listens on `basePort`. */
export function rigAddresses(basePort: number) {
  return {
    platformUrl: `http://localhost:${basePort}`,
    demoHostUrl: `http://127.0.0.1:${basePort + 1}`,
    /** An allowed host origin serving fixture pages. */
    hostUrl: `http://127.0.0.1:${basePort + 2}`,
    /** Not allowed: may not frame the embed, and its messages must be ignored. */
    attackerUrl: `http://127.0.0.1:${basePort + 3}`,
    /**
     * A plain echo page on a site of its own (like the platform, not like the host), so the
     * raw postMessage baseline crosses processes exactly as the embed does.
     */
    echoUrl: `http://localhost:${basePort + 4}`,
    adminToken: "svc_e2e_admin_token_0123456789abcdefghij",
  } as const;
}
export type RigAddresses = ReturnType<typeof rigAddresses>;

/** Addresses of the rig the Playwright suite runs against (SVC_E2E_BASE_PORT moves them, e.g. to run beside another rig). */
export const E2E = rigAddresses(Number(process.env.SVC_E2E_BASE_PORT) || 18080);
