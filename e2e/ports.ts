/** e2e ports, away from the defaults so a running Seam does not collide with the tests. */
export const PORTS = { host: 4417, web: 3117, model: 4499 } as const;
